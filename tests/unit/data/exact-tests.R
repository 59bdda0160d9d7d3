# Reference values of the exact tests of lib/stats.c, computed a way of
# their own: R's phyper, dbinom, fisher.test and mantelhaen.test, every
# table of the two sides enumerated.  tests/unit/test_crashloss.c and
# tests/unit/test_report_loss.c hold what this printed (R 4.2.2, Debian
# 12's r-base-core); the tests do not need R.
#
#   Rscript tests/unit/data/exact-tests.R     # about 4 minutes

# Boschloo's test by brute force: Fisher's one-sided p of every table
# (phyper), the tables at most as likely as the observed one's (within a
# relative 1e-13, as SciPy), their probability maximised over the common
# proportion on a grid of GRID points and by optimize() around the grid's
# ten best; the two-sided p twice the smaller one-sided p.
boschloo <- function(x1, n1, x2, n2, grid = if (max(n1, n2) > 60) 2000 else 20000) {
  A <- 0:n1; B <- 0:n2
  K <- outer(A, B, "+")
  Fless <- matrix(phyper(rep(A, n2 + 1), n1, n2, K), n1 + 1)
  Fmore <- matrix(phyper(rep(B, each = n1 + 1), n2, n1, K), n1 + 1)
  one <- function(Fm, obs) {
    reg <- Fm <= obs * (1 + 1e-13)
    tail <- function(p) sum(outer(dbinom(A, n1, p), dbinom(B, n2, p)) * reg)
    pis <- (1:(grid - 1)) / grid
    v <- vapply(pis, tail, 0)
    best <- max(v)
    for (i in order(-v)[1:10]) {
      o <- optimize(tail, c(max(0, pis[i] - 1 / grid), min(1, pis[i] + 1 / grid)),
                    maximum = TRUE, tol = 1e-12)
      best <- max(best, o$objective)
    }
    best
  }
  pl <- one(Fless, phyper(x1, n1, n2, x1 + x2))
  pm <- one(Fmore, phyper(x2, n2, n1, x1 + x2))
  min(1, 2 * min(pl, pm))
}

# The fewest crashes a side m past both sides with which Boschloo's test
# of round(ka m / na) of m against round(kb m / nb) of m (halves away from
# zero, as C's llround) has p <= 0.05, trying each m in turn.
resolve <- function(ka, na, kb, nb, max = 400) {
  rnd <- function(x) floor(x + 0.5)
  for (m in (max(na, nb) + 1):max)
    if (boschloo(rnd(ka * m / na), m, rnd(kb * m / nb), m) <= 0.05) return(m)
  NA
}

# The exact conditional test of 2x2xK tables (mantelhaen.test's exact
# form): its arguments x1, n1, x2, n2 of each stratum in turn.
mh <- function(...) {
  v <- c(...); k <- length(v) / 4
  a <- array(0, c(2, 2, k))
  for (s in 1:k)
    a[, , s] <- matrix(c(v[4*s-3], v[4*s-2] - v[4*s-3], v[4*s-1], v[4*s] - v[4*s-1]),
                       2, byrow = TRUE)
  mantelhaen.test(a, exact = TRUE)$p.value
}

fisher <- function(x1, n1, x2, n2)
  fisher.test(matrix(c(x1, n1 - x1, x2, n2 - x2), 2, byrow = TRUE))$p.value

say <- function(what, v) cat(sprintf("%s: %.17g\n", what, v))
for (t in list(c(3, 7, 10, 11), c(4, 16, 0, 16), c(4, 61, 0, 61), c(10, 61, 2, 61),
               c(1, 90, 0, 90), c(5, 90, 0, 90), c(4, 89, 0, 89), c(30, 100, 18, 100),
               c(5, 200, 0, 200), c(20, 200, 8, 200), c(100, 300, 80, 300)))
  say(sprintf("boschloo %g of %g vs %g of %g", t[1], t[2], t[3], t[4]),
      boschloo(t[1], t[2], t[3], t[4]))
for (t in list(c(3, 7, 10, 11), c(4, 16, 0, 16), c(4, 61, 0, 61)))
  say(sprintf("fisher %g of %g vs %g of %g", t[1], t[2], t[3], t[4]),
      fisher(t[1], t[2], t[3], t[4]))
for (t in list(c(4, 16, 0, 16), c(4, 61, 0, 61), c(1, 20, 0, 20), c(5, 10, 4, 10),
               c(30, 100, 18, 100)))
  say(sprintf("resolve %g of %g vs %g of %g", t[1], t[2], t[3], t[4]),
      resolve(t[1], t[2], t[3], t[4]))
say("mh lvm 3/3 vs 11/12, qcow2 1/12 vs 0/3", mh(3, 3, 11, 12, 1, 12, 0, 3))
say("mh 5/5 vs 0/5 twice", mh(5, 5, 0, 5, 5, 5, 0, 5))
say("mh 2/6 vs 0/4, 7/10 vs 3/9, 1/4 vs 1/4", mh(2, 6, 0, 4, 7, 10, 3, 9, 1, 4, 1, 4))
say("mh 3/3 vs 0/3, 0/3 vs 3/3", mh(3, 3, 0, 3, 0, 3, 3, 3))
say("mh 3/4 vs 0/4, 2/2 vs 0/5, 4/7 vs 1/6", mh(3, 4, 0, 4, 2, 2, 0, 5, 4, 7, 1, 6))
say("mh 5/5 vs 0/4, 3/4 vs 0/6", mh(5, 5, 0, 4, 3, 4, 0, 6))

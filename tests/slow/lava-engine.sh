#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole LAVA engine on this machine, as a lab runs it, started and
# stopped here (no systemd): PostgreSQL (a cluster of its own, on
# 127.0.0.1), lava-server's web and API (gunicorn), its scheduler and a
# lava-worker, all Debian's; a qemu device (no_kvm) on that worker; the
# kit's NAME.netboot/lava-qemu.yaml submitted with lavacli as the build
# wrote it, waited for, and its results read back through LAVA's API
# (`lavacli results`): the job complete, one case per planned run with the
# measurement and unit of the journal the server uploaded.  Everything
# started is stopped at the end, whatever happens.
#
# Slow, not in make check: tests/slow/lava-job.sh runs the same job with
# the dispatcher alone; this adds the server, its database, the
# scheduler and the API (the database's set-up alone is a minute here),
# about 4 minutes in all.
. "$TOP/tests/lib/common.sh"
. "$TOP/tests/lib/webdav.sh"
. "$TOP/tests/lib/lava.sh"
for t in lava-server lava-worker lavacli gunicorn3 runuser; do
	command -v "$t" >/dev/null 2>&1 || skip "$t is not installed (scripts/install-deps.sh)"
done
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pgbin/initdb" ] || skip "PostgreSQL is not installed (scripts/install-deps.sh)"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

lava_kit
# The engine's own files, where the postgres user can reach them (as
# webdav.sh's: a work directory under a 0700 parent would not let it).
eng=$(mktemp -d /var/tmp/buildapp-lava-engine.XXXXXX)
chmod 755 "$eng"
mkdir -p "$eng/pg" "$eng/pgsock" "$eng/devices" "$eng/media" "$eng/log" "$eng/worker"
chown postgres:postgres "$eng/pg" "$eng/pgsock"
pg_port=$(free_port) http_port=$(free_port)
on_exit='engine_stop'
engine_stop() {
	for p in $engine_pids; do kill "$p" 2>/dev/null || true; done
	for p in $engine_pids; do wait "$p" 2>/dev/null || true; done
	[ ! -f "$eng/pg/postmaster.pid" ] ||
		runuser -u postgres -- "$pgbin/pg_ctl" -D "$eng/pg" -m fast -w stop >/dev/null 2>&1 || true
	if [ -n "${KEEP_TMP:-}" ]; then echo "engine files kept: $eng"; else rm -rf "$eng"; fi
}
engine_pids=""
started() { # NAME PID: a daemon started here, stopped at the end
	engine_pids="$engine_pids $2"
	echo "started $1 (pid $2)"
}

runuser -u postgres -- "$pgbin/initdb" -D "$eng/pg" -A trust -U postgres -E UTF8 \
	--locale=C.UTF-8 >"$eng/log/initdb.log" 2>&1 || { cat "$eng/log/initdb.log"; fail "initdb"; }
runuser -u postgres -- "$pgbin/pg_ctl" -D "$eng/pg" -l "$eng/pg/server.log" -w \
	-o "-p $pg_port -k $eng/pgsock -c listen_addresses=127.0.0.1" start >/dev/null ||
	fail "PostgreSQL did not start: $(tail -n 5 "$eng/pg/server.log")"
psql -q -h "$eng/pgsock" -p "$pg_port" -U postgres -c "CREATE ROLE lavaserver LOGIN PASSWORD 'lava'" \
	-c "CREATE DATABASE lavaserver OWNER lavaserver" || fail "the LAVA database"

# lava-server's settings from the environment (lava_server/settings/
# prod.py), so nothing under /etc is written: its database, its
# devices' dictionaries and the jobs' output here.
export DATABASE_URL="postgres://lavaserver:lava@127.0.0.1:$pg_port/lavaserver"
export SECRET_KEY="buildapp-test-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
export ALLOWED_HOSTS=127.0.0.1
export LAVA_SETTINGS_DEVICES_PATH="$eng/devices" LAVA_SETTINGS_MEDIA_ROOT="$eng/media"
export LAVA_SETTINGS_DJANGO_LOGFILE="$eng/log/django.log"
manage() { lava-server manage "$@" >>"$eng/log/manage.log" 2>&1 || { tail -n 20 "$eng/log/manage.log"; fail "lava-server manage $1 $2"; }; }
start=$(date +%s)
manage migrate --noinput
token=buildapp-test-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
manage users add --superuser --staff admin
manage tokens add --user admin --secret "$token"
manage workers add --description "buildapp's test worker" test-worker
manage device-types add qemu
manage devices add --device-type qemu --worker test-worker qemu-01
printf "{%% extends 'qemu.jinja2' %%}\n{%% set no_kvm = True %%}\n" >"$eng/devices/qemu-01.jinja2"
worker_token=$(lava-server manage workers details test-worker 2>/dev/null | sed -n 's/^token *: //p')
[ -n "$worker_token" ] || fail "no token for the worker"
echo "LAVA's database set up in $(($(date +%s) - start))s"

url=http://127.0.0.1:$http_port
gunicorn3 lava_server.wsgi --bind "127.0.0.1:$http_port" --worker-class eventlet --workers 2 \
	--log-file "$eng/log/gunicorn.log" >"$eng/log/gunicorn.out" 2>&1 &
started gunicorn $!
lava-server manage lava-scheduler --level INFO --log-file "$eng/log/scheduler.log" \
	>"$eng/log/scheduler.out" 2>&1 &
started lava-scheduler $!
n=60
until curl -fs -o /dev/null "$url/api/v0.2/" || [ "$n" -eq 0 ]; do sleep 1; n=$((n - 1)); done
[ "$n" -gt 0 ] || fail "lava-server's API did not answer: $(tail -n 5 "$eng/log/gunicorn.log")"
lava-worker --name test-worker --url "$url/" --token "$worker_token" --worker-dir "$eng/worker" \
	--log-file "$eng/log/worker.log" --level INFO >"$eng/log/worker.out" 2>&1 &
started lava-worker $!

api="http://admin:$token@127.0.0.1:$http_port/RPC2"
n=60
until lavacli --uri "$api" workers show test-worker 2>/dev/null | grep -q "state *: Online" ||
	[ "$n" -eq 0 ]; do sleep 1; n=$((n - 1)); done
[ "$n" -gt 0 ] || fail "the worker did not come online: $(tail -n 5 "$eng/log/worker.log")"
lavacli --uri "$api" devices list

job=$(lavacli --uri "$api" jobs submit "$nb/lava-qemu.yaml") || fail "lavacli could not submit lava-qemu.yaml"
echo "submitted job $job"
start=$(date +%s)
timeout 2400 lavacli --uri "$api" jobs wait --polling 10 "$job" >/dev/null ||
	fail "job $job did not finish: $(lavacli --uri "$api" jobs show "$job")"
echo "job $job finished in $(($(date +%s) - start))s"
lavacli --uri "$api" jobs show "$job" | tee "$work/job.txt"
grep -q "^Health *: Complete" "$work/job.txt" || {
	lavacli --uri "$api" jobs logs "$job" | tail -n 30; fail "job $job did not end complete"; }
lavacli --uri "$api" jobs logs "$job" | grep -oE 'BUILDAPP-SWEEP (start|case|end)[ =].*' || true
lavacli --uri "$api" results "$job" --yaml >"$work/results.yaml" || fail "lavacli results"
lava results --api "$work/results.yaml" >"$work/results.json"
b=$(lava_bundle unknown)
[ -n "$b" ] && [ -f "$b/runs.jsonl" ] || fail "the server uploaded no bundle"
lava check "$work/results.json" "$b" ok || fail "the results LAVA's API holds are not the journal's"
echo "lava-engine: PostgreSQL, lava-server, its scheduler and a worker ran the kit's qemu job submitted with lavacli; its results read through the API are the journal's"

# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests: a real WebDAV server (Debian's nginx-core, its dav
# module) on 127.0.0.1 only, on a free port, for the tests' uploads.
# webdav_start DIR: serves DIR/dav; /rack/ takes PUT, MKCOL, MOVE and
# DELETE, /ro/ only reads (a PUT is refused 405), /closed/ answers 403.
# The server's files (dav/, nginx/, tls/) live in a directory of its own
# under /var/tmp, which DIR's entries link to: started by root, nginx's
# workers run as nobody and must reach them from /, whatever DIR's
# parents allow (a clone under a mktemp -d directory, mode 0700, did
# not let them: every request was refused 403).
# Sets WEBDAV_PORT and WEBDAV_URL (http://127.0.0.1:PORT); the same over
# TLS at WEBDAV_TLS_URL (https://127.0.0.1:PORT2), its certificate for
# 127.0.0.1 issued by a CA of its own, WEBDAV_CA (PEM).  webdav_stop
# stops it.  Exits 77 when nginx or openssl is not installed.
webdav_start() {
	command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || {
		echo "nginx is not installed (nginx-core: scripts/install-deps.sh)"; exit 77; }
	NGINX=$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)
	command -v openssl >/dev/null 2>&1 || { echo "openssl is not installed"; exit 77; }
	WEBDAV_DIR=$(mktemp -d /var/tmp/buildapp-webdav.XXXXXX)
	wd=$WEBDAV_DIR
	mkdir -p "$1" "$wd/dav/rack" "$wd/dav/ro" "$wd/dav/closed" "$wd/nginx" "$wd/tls"
	for d in dav nginx tls; do ln -sfn "$wd/$d" "$1/$d"; done
	# A CA, and the server's certificate for 127.0.0.1 that it signs.
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=buildapp test CA" \
		-keyout "$wd/tls/ca.key" -out "$wd/tls/ca.pem" 2>/dev/null &&
	openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
		-keyout "$wd/tls/server.key" -out "$wd/tls/server.csr" 2>/dev/null &&
	printf 'subjectAltName=IP:127.0.0.1\n' >"$wd/tls/ext" &&
	openssl x509 -req -in "$wd/tls/server.csr" -CA "$wd/tls/ca.pem" -CAkey "$wd/tls/ca.key" \
		-CAcreateserial -days 2 -extfile "$wd/tls/ext" -out "$wd/tls/server.pem" 2>/dev/null ||
		{ echo "FAILED: openssl could not make the test certificates"; exit 1; }
	WEBDAV_CA=$wd/tls/ca.pem
	# The workers run as nobody when started by root.
	chmod 755 "$wd" "$wd/tls"
	chmod 644 "$wd/tls/server.key"
	chmod 777 "$wd/dav/rack"
	WEBDAV_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	WEBDAV_TLS_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	user=""
	[ "$(id -u)" -ne 0 ] || user="user nobody nogroup;"
	cat >"$wd/nginx/nginx.conf" <<CONF
$user
worker_processes 1;
pid $wd/nginx/nginx.pid;
error_log $wd/nginx/error.log;
events { worker_connections 64; }
http {
	access_log $wd/nginx/access.log;
	client_body_temp_path $wd/nginx/body;
	proxy_temp_path $wd/nginx/proxy;
	fastcgi_temp_path $wd/nginx/fastcgi;
	uwsgi_temp_path $wd/nginx/uwsgi;
	scgi_temp_path $wd/nginx/scgi;
	server {
		listen 127.0.0.1:$WEBDAV_PORT;
		listen 127.0.0.1:$WEBDAV_TLS_PORT ssl;
		ssl_certificate $wd/tls/server.pem;
		ssl_certificate_key $wd/tls/server.key;
		root $wd/dav;
		client_max_body_size 0;
		location /rack/ {
			dav_methods PUT DELETE MKCOL COPY MOVE;
			create_full_put_path on;
			dav_access user:rw group:rw all:r;
		}
		location /ro/ { }
		location /closed/ { deny all; }
	}
}
CONF
	"$NGINX" -p "$wd/nginx" -c "$wd/nginx/nginx.conf" -e "$wd/nginx/error.log" || {
		cat "$wd/nginx/error.log"; echo "FAILED: nginx did not start"; exit 1; }
	WEBDAV_PIDFILE=$wd/nginx/nginx.pid
	WEBDAV_URL=http://127.0.0.1:$WEBDAV_PORT
	WEBDAV_TLS_URL=https://127.0.0.1:$WEBDAV_TLS_PORT
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		python3 -c "import socket, sys; socket.create_connection((\"127.0.0.1\", int(sys.argv[1])), 2)" "$WEBDAV_PORT" 2>/dev/null && return 0
		sleep 0.5
	done
	echo "FAILED: nginx does not answer on $WEBDAV_URL"
	exit 1
}

webdav_stop() {
	[ -n "${WEBDAV_PIDFILE:-}" ] && [ -s "$WEBDAV_PIDFILE" ] &&
		kill "$(cat "$WEBDAV_PIDFILE")" 2>/dev/null
	WEBDAV_PIDFILE=""
	[ -n "${KEEP_TMP:-}" ] ||
		case ${WEBDAV_DIR:-} in /var/tmp/buildapp-webdav.*) rm -rf "$WEBDAV_DIR" ;; esac
	WEBDAV_DIR=""
}

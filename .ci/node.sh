# Puts the Node of .nvmrc first on PATH, installing it from the npm registry (the node-linux-<arch>
# package holds the official binary; no root, no install script) when the machine's Node is older.
# Use: `source .ci/node.sh` (in a shell, or from .ci/run).
_trackpitch_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_trackpitch_want="$(tr -d '[:space:]' < "$_trackpitch_root/.nvmrc")"
_trackpitch_have="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
if [ "${_trackpitch_have%%.*}" -lt "${_trackpitch_want%%.*}" ]; then
  case "$(uname -m)" in
    x86_64) _trackpitch_arch=x64 ;;
    aarch64 | arm64) _trackpitch_arch=arm64 ;;
    *) _trackpitch_arch="$(uname -m)" ;;
  esac
  _trackpitch_dir="${XDG_CACHE_HOME:-$HOME/.cache}/trackpitch/node-$_trackpitch_want"
  _trackpitch_bin="$_trackpitch_dir/node_modules/node-linux-$_trackpitch_arch/bin"
  if [ ! -x "$_trackpitch_bin/node" ]; then
    echo "Installing Node $_trackpitch_want (node-linux-$_trackpitch_arch from the npm registry) into $_trackpitch_dir"
    npm install --prefix "$_trackpitch_dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-$_trackpitch_arch@$_trackpitch_want" >/dev/null
  fi
  export PATH="$_trackpitch_bin:$PATH"
fi
echo "Node $(node -p 'process.versions.node')"
unset _trackpitch_root _trackpitch_want _trackpitch_have _trackpitch_arch _trackpitch_dir _trackpitch_bin

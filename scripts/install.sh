#!/bin/sh
# Installs mm from a release: picks this machine's binary, downloads it with the release's
# SHA256SUMS, checks the checksum, and only then installs it as `mm`. A mismatch installs nothing.
#
#   curl -fsSL <release>/install.sh | sh
#
# Settings (environment):
#   MM_INSTALL_BASE_URL  where the release's files are; default
#                        https://github.com/<repo>/releases/latest/download (or .../download/<tag>
#                        with MM_VERSION), <repo> being MM_REPO
#   MM_REPO              owner/name of the GitHub repository (set by the release workflow)
#   MM_VERSION           a release tag (v0.1.0); default the latest release
#   MM_INSTALL_DIR       where `mm` goes; default $HOME/.local/bin
#   MM_INSTALL_TARGET    the platform, instead of asking uname (x86_64-unknown-linux-gnu, ...)
set -eu

REPO="${MM_REPO:-__MM_REPO__}"
DIR="${MM_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}"

fail() {
  echo "mm install: $*" >&2
  exit 1
}

# The Deno target of this machine, as the release names its binaries.
target() {
  if [ -n "${MM_INSTALL_TARGET:-}" ]; then
    echo "$MM_INSTALL_TARGET"
    return
  fi
  os=$(uname -s)
  arch=$(uname -m)
  case "$arch" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) fail "no mm binary for the $arch processor (x86_64 and aarch64 only)" ;;
  esac
  case "$os" in
    Linux) echo "$arch-unknown-linux-gnu" ;;
    Darwin) echo "$arch-apple-darwin" ;;
    MINGW* | MSYS* | CYGWIN*)
      [ "$arch" = x86_64 ] || fail "no mm binary for Windows on $arch (x86_64 only)"
      echo "x86_64-pc-windows-msvc"
      ;;
    *) fail "no mm binary for $os (Linux, macOS and Windows only)" ;;
  esac
}

# Downloads $1 to the file $2.
download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    fail "neither curl nor wget is installed"
  fi
}

# The SHA-256 of the file $1, in hex.
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/.*= *//'
  else
    fail "no sha256sum, shasum or openssl to check the download with"
  fi
}

TARGET=$(target)
NAME="mm-$TARGET"
case "$TARGET" in *windows*) NAME="$NAME.exe" ;; esac
EXE=mm
case "$TARGET" in *windows*) EXE=mm.exe ;; esac

if [ -n "${MM_INSTALL_BASE_URL:-}" ]; then
  BASE="${MM_INSTALL_BASE_URL%/}"
else
  case "$REPO" in
    */*) ;;
    *) fail "set MM_REPO=owner/name (or MM_INSTALL_BASE_URL) to say where the releases are" ;;
  esac
  if [ -n "${MM_VERSION:-}" ]; then
    BASE="https://github.com/$REPO/releases/download/$MM_VERSION"
  else
    BASE="https://github.com/$REPO/releases/latest/download"
  fi
fi

TMP=$(mktemp -d 2>/dev/null || mktemp -d -t mm-install)
trap 'rm -rf "$TMP"' EXIT INT TERM

echo "downloading $BASE/$NAME"
download "$BASE/$NAME" "$TMP/$NAME" || fail "cannot download $BASE/$NAME"
download "$BASE/SHA256SUMS" "$TMP/SHA256SUMS" || fail "cannot download $BASE/SHA256SUMS"

EXPECTED=$(awk -v n="$NAME" '{ f = $2; sub(/^\*/, "", f); if (f == n) { print $1; exit } }' "$TMP/SHA256SUMS")
[ -n "$EXPECTED" ] || fail "SHA256SUMS has no line for $NAME — nothing was installed"
ACTUAL=$(sha256 "$TMP/$NAME")
if [ "$ACTUAL" != "$EXPECTED" ]; then
  fail "checksum mismatch for $NAME (expected $EXPECTED, got $ACTUAL) — nothing was installed"
fi
echo "checksum ok: $ACTUAL"

mkdir -p "$DIR"
chmod 755 "$TMP/$NAME"
# Copy next to the destination, then rename: a running mm is never half-overwritten.
cp "$TMP/$NAME" "$DIR/.$EXE.partial"
mv -f "$DIR/.$EXE.partial" "$DIR/$EXE"
echo "installed $DIR/$EXE"
"$DIR/$EXE" --version 2>/dev/null || true
case ":${PATH:-}:" in
  *":$DIR:"*) ;;
  *) echo "add $DIR to your PATH to run mm" ;;
esac

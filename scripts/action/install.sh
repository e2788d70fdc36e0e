#!/bin/sh
# The action's install step (action.yml): which release, then scripts/install.sh for it.
#
#   install.sh resolve   the release tag to install: $MM_VERSION, checked to exist, or the latest
#                        release's tag; written as `version=<tag>` to $GITHUB_OUTPUT (and stdout)
#   install.sh install   installs release $MM_VERSION (a tag) into $MM_INSTALL_DIR with
#                        scripts/install.sh: the SHA-256 is checked, a mismatch installs nothing
#
# Settings (environment):
#   MM_REPO          owner/name of mm's repository (the action passes github.action_repository)
#   MM_VERSION       a release tag (v0.1.0); empty: the latest release
#   MM_RELEASES_URL  where the releases are; default https://github.com/$MM_REPO/releases
#                    (…/latest redirects to …/tag/<tag>; files under …/download/<tag>/)
#   MM_INSTALL_DIR   where `mm` goes
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)

fail() {
  echo "mm action: $*" >&2
  exit 1
}

command -v curl >/dev/null 2>&1 || fail "curl is not installed (the runner needs it to download mm)"

if [ -n "${MM_RELEASES_URL:-}" ]; then
  RELEASES="${MM_RELEASES_URL%/}"
else
  case "${MM_REPO:-}" in
    */*) ;;
    *) fail "MM_REPO must be owner/name (the repository of the action), not \"${MM_REPO:-}\"" ;;
  esac
  RELEASES="https://github.com/$MM_REPO/releases"
fi

# Asks for $1 (following redirects); prints the HTTP status and the final URL, or fails saying that
# the release host cannot be reached.
probe() {
  if ! out=$(curl -sS -L -o /dev/null --retry 2 --connect-timeout 20 \
    -w '%{http_code} %{url_effective}' "$1" 2>&1); then
    fail "cannot reach the release host for $1 (${out#curl: }) — the runner needs network access to it (or set MM_RELEASES_URL to a mirror)"
  fi
  echo "$out"
}

# The tag a URL ending in /tag/<tag> names.
tag_of() {
  case "$1" in
    */tag/*) echo "${1##*/tag/}" ;;
    *) echo "" ;;
  esac
}

resolve() {
  if [ -n "${MM_VERSION:-}" ]; then
    answer=$(probe "$RELEASES/tag/$MM_VERSION") || exit 1
    set -- $answer
    [ "$1" = 200 ] ||
      fail "no release $MM_VERSION at $RELEASES ($RELEASES/tag/$MM_VERSION answered HTTP $1) — set version to an existing release tag, or leave it empty for the latest"
    tag=$MM_VERSION
  else
    answer=$(probe "$RELEASES/latest") || exit 1
    set -- $answer
    tag=$(tag_of "${2:-}")
    [ "$1" = 200 ] && [ -n "$tag" ] ||
      fail "no latest release at $RELEASES ($RELEASES/latest answered HTTP $1) — publish a release, or set version"
  fi
  echo "version=$tag"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "version=$tag" >>"$GITHUB_OUTPUT"; fi
}

install() {
  [ -n "${MM_VERSION:-}" ] || fail "install needs MM_VERSION (run resolve first)"
  [ -n "${MM_INSTALL_DIR:-}" ] || fail "install needs MM_INSTALL_DIR"
  MM_INSTALL_BASE_URL="$RELEASES/download/$MM_VERSION" MM_INSTALL_DIR="$MM_INSTALL_DIR" \
    sh "$HERE/../install.sh"
}

case "${1:-}" in
  resolve) resolve ;;
  install) install ;;
  *) fail "usage: install.sh resolve|install" ;;
esac

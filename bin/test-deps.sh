# Sourced by ./test: installs the Debian packages some integration tests drive as real components, when
# they are missing and this machine can install them (root, apt-get). Nothing else is touched; where a
# package cannot be installed the tests that need it skip and say why.
#   prometheus-alertmanager  AlertmanagerIT: a real Alertmanager posts its webhooks to the kernel
#   chromium, chromium-driver ConsoleBrowserIT: the console (/ui) driven in a real headless browser
svc_test_packages=(prometheus-alertmanager chromium chromium-driver)
svc_test_binaries=(/usr/bin/prometheus-alertmanager /usr/bin/chromium /usr/bin/chromedriver)
svc_install_test_deps() {
  local missing=() i
  for i in "${!svc_test_packages[@]}"; do
    [ -x "${svc_test_binaries[$i]}" ] || missing+=("${svc_test_packages[$i]}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "test: ${missing[*]} not installed and cannot be installed here (needs root and apt-get); the tests that drive it will skip"
    return 0
  fi
  echo "test: installing ${missing[*]} (Debian packages; once per machine)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
      > /tmp/svc-test-deps.log 2>&1; then
    echo "test: installing ${missing[*]} failed (see /tmp/svc-test-deps.log); the tests that drive it will skip"
  fi
  # the package starts its own service; tests start their own instances on loopback ports
  if command -v systemctl >/dev/null 2>&1; then systemctl stop prometheus-alertmanager >/dev/null 2>&1 || true; fi
  pkill -f '^/usr/bin/prometheus-alertmanager' >/dev/null 2>&1 || true
  return 0
}
svc_install_test_deps

# Sourced by ./test: installs the Debian packages some integration tests drive as real components, when
# they are missing and this machine can install them (root, apt-get). Nothing else is touched; where a
# package cannot be installed the tests that need it skip and say why.
#   prometheus-alertmanager  AlertmanagerIT: a real Alertmanager posts its webhooks to the kernel; the prometheus
#                            plugin's tests read its alerts and write silences
#   prometheus               the prometheus plugin's tests: a real Prometheus (queries, targets, rules, alerts)
#   openssh-server, openssh-client  the SSH plugins' tests: a real sshd on a loopback high port (ssh-keygen for its keys)
#   bind9, bind9-utils, bind9-dnsutils  dns-ssh's tests: a real named, rndc, named-checkconf, dig and nsupdate
#   nftables  firewall-ssh's tests: nft inside a network namespace the test creates (iproute2's ip netns)
#   chromium, chromium-driver  ConsoleBrowserIT: the console (/ui) driven in a real headless browser
#   nodejs, npm  PgVectorIT (PGlite with pgvector, served on loopback) and ConsoleBrowserIT's axe check
#   podman, runc, mmdebstrap  the image module: bin/build-image makes the Debian base with mmdebstrap and builds with
#                            podman; ImageIT runs the image with runc (crun fails on these machines' cgroup layout)
#   postgresql  ExternalPostgres: a database the kernel reaches by URL, as in production (Debian bookworm's 15)
#   haproxy  the replica tests: two kernel containers behind a round-robin load balancer
#   nginx  bench/run dispatch (and its smoke run in ./test): the same call through an nginx reverse proxy on a loopback
#          high port, the gateway peer beside the backplane (a service the package starts on port 80 is left alone)
#   rsyslog, rsyslog-gnutls  the audit stream's tests: a real rsyslogd receiving RFC 5425 syslog over TLS
#   zsh, fish  CompletionCommandTest: the completion scripts run in the shells they are for (bash is always there)
# Under CI (SVC_REQUIRE_FULL_SUITE=1) a failed install fails the run here, loudly, instead of letting tests skip.
svc_test_packages=(prometheus-alertmanager prometheus openssh-server openssh-client bind9 bind9-utils bind9-dnsutils nftables
  iproute2 chromium chromium-driver nodejs npm podman runc mmdebstrap postgresql haproxy nginx rsyslog rsyslog-gnutls zsh fish)
svc_test_binaries=(/usr/bin/prometheus-alertmanager /usr/bin/prometheus /usr/sbin/sshd /usr/bin/ssh-keygen /usr/sbin/named
  /usr/sbin/rndc /usr/bin/dig /usr/sbin/nft /usr/sbin/ip /usr/bin/chromium /usr/bin/chromedriver /usr/bin/node /usr/bin/npm
  /usr/bin/podman /usr/sbin/runc /usr/bin/mmdebstrap /usr/lib/postgresql/15/bin/initdb /usr/sbin/haproxy /usr/sbin/nginx /usr/sbin/rsyslogd
  /usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so /usr/bin/zsh /usr/bin/fish)
svc_install_test_deps() {
  local missing=() i
  for i in "${!svc_test_packages[@]}"; do
    # a binary must be executable; a loadable module (rsyslog's TLS driver) only there
    [ -x "${svc_test_binaries[$i]}" ] || { [[ ${svc_test_binaries[$i]} == *.so ]] && [ -f "${svc_test_binaries[$i]}" ]; } \
      || missing+=("${svc_test_packages[$i]}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local require=${SVC_REQUIRE_FULL_SUITE:-${CI:+1}}
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "test: ${missing[*]} not installed and cannot be installed here (needs root and apt-get); the tests that drive it will skip"
    [ "${require:-}" = 1 ] && { echo "test: FAILED: CI needs ${missing[*]}" >&2; return 1; }
    return 0
  fi
  echo "test: installing ${missing[*]} (Debian packages; once per machine)"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
      > /tmp/svc-test-deps.log 2>&1; then
    echo "test: installing ${missing[*]} failed (see /tmp/svc-test-deps.log); the tests that drive it will skip"
    if [ "${require:-}" = 1 ]; then
      tail -20 /tmp/svc-test-deps.log >&2
      echo "test: FAILED: CI needs ${missing[*]}" >&2
      return 1
    fi
  fi
  # a package may start its own service; tests start their own instances on loopback high ports (an sshd or
  # named the package started is left alone: it does not use those ports)
  if command -v systemctl >/dev/null 2>&1; then
    systemctl stop prometheus-alertmanager prometheus postgresql haproxy rsyslog >/dev/null 2>&1 || true
  fi
  pkill -f '^/usr/bin/prometheus-alertmanager' >/dev/null 2>&1 || true
  pkill -f '^/usr/bin/prometheus( |$)' >/dev/null 2>&1 || true
  return 0
}
svc_install_test_deps

package dev.backplane.kernel.egress;

import java.net.IDN;
import java.net.InetAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import javax.security.auth.x500.X500Principal;

/** Checks the chain (unless verification is off), then that the leaf certificate names the expected host. */
final class NameCheckingTrustManager extends X509ExtendedTrustManager {
    private final X509TrustManager chain;
    private final String expected;

    NameCheckingTrustManager(X509TrustManager chain, String expected) {
        this.chain = chain;
        this.expected = expected.toLowerCase(Locale.ROOT);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        if (chain == null) {
            return; // verify_tls=false
        }
        chain.checkServerTrusted(certs, authType);
        checkName(certs[0]);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(certs, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(certs, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        throw new CertificateException("client certificates are not accepted here");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        checkClientTrusted(certs, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        checkClientTrusted(certs, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return chain == null ? new X509Certificate[0] : chain.getAcceptedIssuers();
    }

    private void checkName(X509Certificate leaf) throws CertificateException {
        List<String> dns = new ArrayList<>();
        List<String> ips = new ArrayList<>();
        try {
            if (leaf.getSubjectAlternativeNames() != null) {
                for (List<?> san : leaf.getSubjectAlternativeNames()) {
                    int type = (Integer) san.get(0);
                    if (type == 2) {
                        dns.add(san.get(1).toString().toLowerCase(Locale.ROOT));
                    } else if (type == 7) {
                        ips.add(san.get(1).toString());
                    }
                }
            }
        } catch (CertificateParsingException e) {
            throw new CertificateException("cannot read the certificate's names: " + e.getMessage(), e);
        }
        if (dns.isEmpty()) {
            // like the JDK's own hostname check: a certificate without DNS names is matched on its CN
            commonName(leaf).ifPresent(dns::add);
        }
        boolean ok;
        if (TargetTls.isIpLiteral(expected)) {
            ok = ips.stream().anyMatch(ip -> sameIp(ip, expected));
        } else {
            String ascii = IDN.toASCII(expected);
            ok = dns.stream().anyMatch(name -> matches(name, ascii));
        }
        if (!ok) {
            throw new CertificateException("No subject alternative "
                    + (TargetTls.isIpLiteral(expected) ? "IP address" : "DNS name") + " matching " + expected + " found (certificate names: DNS " + dns + ", IP " + ips
                    + "); set tls_server_name to a name the certificate carries");
        }
    }

    private static Optional<String> commonName(X509Certificate leaf) {
        try {
            LdapName dn = new LdapName(
                    leaf.getSubjectX500Principal().getName(X500Principal.RFC2253));
            return dn.getRdns().stream().filter(r -> r.getType().equalsIgnoreCase("CN"))
                    .map(r -> r.getValue().toString().toLowerCase(Locale.ROOT)).reduce((first, last) -> last);
        } catch (InvalidNameException e) {
            return Optional.empty();
        }
    }

    private static boolean matches(String pattern, String host) {
        if (pattern.startsWith("*.")) {
            int dot = host.indexOf('.');
            return dot > 0 && host.substring(dot).equals(pattern.substring(1));
        }
        return pattern.equals(host);
    }

    private static boolean sameIp(String a, String b) {
        try {
            return InetAddress.getByName(a).equals(InetAddress.getByName(b));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}

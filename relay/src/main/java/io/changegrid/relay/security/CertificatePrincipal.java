package io.changegrid.relay.security;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/** Which name of a client certificate is the principal's: its subject CN or its first SAN. */
public enum CertificatePrincipal {
    /** The subject's common name, e.g. {@code CN=orders-app}. */
    CN,
    /** The first subject alternative name of type DNS, URI or e-mail. */
    SAN;

    private static final List<Integer> NAME_TYPES = List.of(1, 2, 6); // rfc822, DNS, URI

    /** The principal's name in {@code certificate}, or null when it has none of this kind. */
    public String of(X509Certificate certificate) {
        return switch (this) {
            case CN -> commonName(certificate);
            case SAN -> alternativeName(certificate);
        };
    }

    private static String commonName(X509Certificate certificate) {
        try {
            for (Rdn rdn :
                    new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return null; // a subject the JDK wrote itself always parses; treated as no name
        }
        return null;
    }

    private static String alternativeName(X509Certificate certificate) {
        try {
            Collection<List<?>> names = certificate.getSubjectAlternativeNames();
            if (names == null) {
                return null;
            }
            for (List<?> name : names) {
                if (NAME_TYPES.contains((Integer) name.get(0))) {
                    return String.valueOf(name.get(1));
                }
            }
            return null;
        } catch (CertificateParsingException e) {
            return null; // an unreadable extension names no principal: the request is refused
        }
    }
}

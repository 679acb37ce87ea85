package io.changegrid.protocol.security;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * The principal's name in a client certificate: its subject CN or its first SAN, as {@code
 * security.certificatePrincipal} chooses.
 */
final class CertificateNames {

    private static final List<Integer> NAME_TYPES = List.of(1, 2, 6); // rfc822, DNS, URI

    private CertificateNames() {}

    /** The principal's name in {@code certificate}, or null when it has none of this kind. */
    static String principal(X509Certificate certificate, CertificatePrincipal kind) {
        return switch (kind) {
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

package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.DefaultSSLSocketFactory;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import io.changegrid.config.tls.CaTrust;
import io.changegrid.config.tls.DatabaseTls;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * The binlog connection's TLS: the client's {@link SSLMode} named as ours, and for the verifying
 * modes a socket factory that trusts the configured CA file. The library's own verifying factory
 * trusts only the JVM's trust store; the unverified modes keep the library's trust-all factory.
 * Host names ({@link SSLMode#VERIFY_IDENTITY}) are checked by the library.
 */
final class BinlogTls {

    private BinlogTls() {}

    static void configure(BinaryLogClient client, DatabaseTls tls) {
        client.setSSLMode(
                switch (tls.mode()) {
                    case DISABLED -> SSLMode.DISABLED;
                    case PREFERRED -> SSLMode.PREFERRED;
                    case REQUIRED -> SSLMode.REQUIRED;
                    case VERIFY_CA -> SSLMode.VERIFY_CA;
                    case VERIFY_IDENTITY -> SSLMode.VERIFY_IDENTITY;
                });
        if (tls.mode().verifies() && tls.caFile() != null) {
            TrustManager[] trust = CaTrust.managers(tls.caFile());
            client.setSslSocketFactory(
                    new DefaultSSLSocketFactory() {
                        @Override
                        protected void initSSLContext(SSLContext context)
                                throws GeneralSecurityException {
                            context.init(null, trust, null);
                        }
                    });
        }
    }
}

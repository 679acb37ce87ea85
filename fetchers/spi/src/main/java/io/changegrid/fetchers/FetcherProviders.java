package io.changegrid.fetchers;

import java.util.ServiceLoader;
import java.util.TreeMap;

/** The {@link FetcherProvider}s on the class path, by {@code source.type}. */
public final class FetcherProviders {

    private FetcherProviders() {}

    /**
     * The provider of a source type.
     *
     * @throws IllegalArgumentException naming the type and the types there are
     */
    public static FetcherProvider find(String type) {
        TreeMap<String, FetcherProvider> byType = all();
        FetcherProvider provider = byType.get(type);
        if (provider == null) {
            throw new IllegalArgumentException(
                    "no fetcher for this source type: value="
                            + type
                            + ", known="
                            + byType.keySet());
        }
        return provider;
    }

    /** Every provider on the class path, by type. */
    public static TreeMap<String, FetcherProvider> all() {
        TreeMap<String, FetcherProvider> byType = new TreeMap<>();
        for (FetcherProvider provider : ServiceLoader.load(FetcherProvider.class)) {
            FetcherProvider other = byType.put(provider.type(), provider);
            if (other != null) {
                throw new IllegalStateException(
                        "two fetchers for one source type: type="
                                + provider.type()
                                + ", first="
                                + other.getClass().getName()
                                + ", second="
                                + provider.getClass().getName());
            }
        }
        return byType;
    }
}

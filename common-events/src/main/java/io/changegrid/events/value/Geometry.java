package io.changegrid.events.value;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A spatial value: its spatial reference system id and its OGC well-known binary. MySQL stores
 * exactly this pair (a 4-byte SRID followed by WKB), so nothing is lost in either direction.
 *
 * @param srid the spatial reference system id, 0 when none was given
 * @param wkb the geometry in well-known binary; not copied, callers must not change it
 */
public record Geometry(int srid, byte[] wkb) {

    public Geometry {
        if (wkb == null) {
            throw new IllegalArgumentException("wkb must not be null");
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Geometry that && srid == that.srid && Arrays.equals(wkb, that.wkb);
    }

    @Override
    public int hashCode() {
        return 31 * srid + Arrays.hashCode(wkb);
    }

    @Override
    public String toString() {
        return "Geometry[srid=" + srid + ", wkb=" + HexFormat.of().formatHex(wkb) + "]";
    }
}

package io.changegrid.fetchers.mysql.schema;

import java.util.List;

/**
 * A data type as a DDL statement declares it, synonyms already resolved ({@code INTEGER} is {@code
 * int}, {@code NUMERIC} is {@code decimal}, {@code BOOL} is {@code tinyint(1)}), but its character
 * set not yet: that depends on the table. {@link ColumnTypeRenderer} turns it into the canonical
 * type.
 *
 * @param base the canonical type name, e.g. {@code int}, {@code varchar}, {@code text}
 * @param length the first parameter (length, display width, precision, fractional digits), or null
 * @param scale the second parameter of {@code decimal(m,d)}, {@code float(m,d)}, or null
 * @param labels the labels of ENUM and SET, else empty
 * @param unsigned declared UNSIGNED (or ZEROFILL, which implies it)
 * @param zerofill declared ZEROFILL
 * @param charset the declared character set ({@code CHARACTER SET}, or implied by {@code NATIONAL},
 *     {@code ASCII}, {@code UNICODE}, {@code BYTE}), not yet canonical; null if not declared
 * @param collation the declared collation, or null
 * @param compressed MariaDB's COMPRESSED attribute
 */
record TypeSpec(
        String base,
        Integer length,
        Integer scale,
        List<String> labels,
        boolean unsigned,
        boolean zerofill,
        String charset,
        String collation,
        boolean compressed) {

    TypeSpec {
        labels = List.copyOf(labels);
    }

    TypeSpec withCharset(String newCharset) {
        return new TypeSpec(
                base, length, scale, labels, unsigned, zerofill, newCharset, collation, compressed);
    }

    TypeSpec withCollation(String newCollation) {
        return new TypeSpec(
                base, length, scale, labels, unsigned, zerofill, charset, newCollation, compressed);
    }

    /** The type with the attributes that follow it: signedness, ZEROFILL, COMPRESSED. */
    TypeSpec withAttributes(boolean newUnsigned, boolean newZerofill, boolean newCompressed) {
        return new TypeSpec(
                base,
                length,
                scale,
                labels,
                newUnsigned || newZerofill,
                newZerofill,
                charset,
                collation,
                newCompressed);
    }
}

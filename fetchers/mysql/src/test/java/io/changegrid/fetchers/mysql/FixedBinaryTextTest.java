package io.changegrid.fetchers.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The expected texts are what MariaDB 10.11 itself shows for the same bytes. */
class FixedBinaryTextTest {

    @ParameterizedTest
    @CsvSource({
        "00000000000000000000000000000000, ::",
        "00000000000000000000000000000001, ::1",
        "00000000000000000000000000000002, ::2",
        "00000000000000000000000000000100, ::100",
        "00000000000000000000000000010000, ::0.1.0.0",
        "000000000000000000000000ffffffff, ::255.255.255.255",
        "00000000000000000000ffff00000000, ::ffff:0.0.0.0",
        "00000000000000000000ffff01020304, ::ffff:1.2.3.4",
        "0000000000000000ffff000000000001, ::ffff:0:0:1",
        "00000000000000000000fffe01020304, ::fffe:102:304",
        "00000000000000000000000100000000, ::1:0:0",
        "00010000000000000000000000000000, 1::",
        "00010000000000010000000000000001, 1:0:0:1::1",
        "00010000000000010000000000010001, 1::1:0:0:1:1",
        "00010000000100010001000100010001, 1::1:1:1:1:1:1",
        "00010001000100010001000100010000, 1:1:1:1:1:1:1::",
        "00000001000100010001000100010001, ::1:1:1:1:1:1:1",
        "abcdef01000000000000000000000000, abcd:ef01::",
        "0064ff9b000000000000000001020304, 64:ff9b::102:304",
        "fe800000000000000000000000010002, fe80::1:2",
        "20010db8000000000000000000000001, 2001:db8::1",
    })
    void shouldWriteInet6AsTheServerDoesWhenAddressesHaveZeroRunsOrEmbeddedIpv4(
            String hex, String text) {
        assertThat(FixedBinaryText.inet6(HexFormat.of().parseHex(hex))).isEqualTo(text);
    }

    @ParameterizedTest
    @CsvSource({"'', 0.0.0.0", "01020304, 1.2.3.4", "010203, 1.2.3.0", "ffffffff, 255.255.255.255"})
    void shouldPadAndWriteInet4WhenTheBinlogStrippedTrailingZeros(String hex, String text) {
        assertThat(FixedBinaryText.inet4(HexFormat.of().parseHex(hex))).isEqualTo(text);
    }

    @ParameterizedTest
    @CsvSource({
        "'', 00000000-0000-0000-0000-000000000000",
        "0123456789ab4def8123456789abcdef, 01234567-89ab-4def-8123-456789abcdef",
        "0123456789ab1def0123456789abcd, 01234567-89ab-1def-0123-456789abcd00",
        "ffffffffffffffffffffffffffffffff, ffffffff-ffff-ffff-ffff-ffffffffffff"
    })
    void shouldWriteUuidInLowerCaseGroupsWhenTheBinlogStrippedTrailingZeros(
            String hex, String text) {
        assertThat(FixedBinaryText.uuid(HexFormat.of().parseHex(hex))).isEqualTo(text);
    }
}

package io.changegrid.protocol.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenTableTest {

    @Test
    void shouldNameThePrincipalWhenTheTokensHashIsListed() throws IOException {
        TokenTable table =
                TokenTable.parse(
                        List.of(
                                "# comment",
                                "",
                                TokenTable.SHA256 + TokenTable.hash("s3cret") + " orders-app"),
                        "tokens");
        assertThat(table.principalOf("s3cret")).isEqualTo("orders-app");
        assertThat(table.principalOf("s3cret ")).isNull();
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void shouldHashAsSha256sumDoes() {
        // printf %s abc | sha256sum
        assertThat(TokenTable.hash("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void shouldRefuseALineNamingItWhenItIsNotAHashAndAPrincipal() {
        assertThatThrownBy(() -> TokenTable.parse(List.of("plain-token orders-app"), "tokens"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line=1")
                .hasMessageNotContaining("plain-token");
    }
}

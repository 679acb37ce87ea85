package io.changegrid.fetchers.mysql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.fetchers.mysql.schema.SqlToken.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlLexerTest {

    private static final ServerDialect MARIADB_1011 = ServerDialect.mariaDb("utf8mb4");

    @Test
    void shouldDropCommentsWhenTheyAreOrdinary() {
        assertThat(texts("a /* x */ b -- y\nc # z\nd/**/e"))
                .containsExactly("a", "b", "c", "d", "e");
    }

    @Test
    void shouldNotTakeDoubleDashAsACommentWhenNoSpaceFollows() {
        assertThat(texts("1--2")).containsExactly("1", "-", "-", "2");
        assertThat(texts("a --\tb")).containsExactly("a");
        assertThat(texts("a --")).containsExactly("a");
    }

    @Test
    void shouldKeepExecutableCommentContentWhenTheServerIsRecentEnough() {
        assertThat(texts("a /*!40101 b */ c")).containsExactly("a", "b", "c");
        assertThat(texts("a /*! b */ c")).containsExactly("a", "b", "c");
        assertThat(texts("a /*!999999 b */ c")).containsExactly("a", "c");
        assertThat(texts("a /*M!100100 b */ c")).containsExactly("a", "b", "c");
        assertThat(texts("a /*M!999999 b */ c")).containsExactly("a", "c");
        assertThat(texts("a /*+ HINT(x) */ c")).containsExactly("a", "c");
    }

    @Test
    void shouldSkipMariaDbCommentsWhenTheServerIsMySql() {
        List<SqlToken> tokens =
                SqlLexer.tokenize("a /*M!100100 b */ c /*!80000 d */", ServerDialect.mySql8());

        assertThat(tokens).extracting(SqlToken::text).containsExactly("a", "c", "d", "");
    }

    @Test
    void shouldUnquoteIdentifiersWhenBackquoted() {
        List<SqlToken> tokens = SqlLexer.tokenize("`a``b` `select` `x.y`", MARIADB_1011);

        assertThat(tokens)
                .extracting(SqlToken::kind)
                .containsExactly(Kind.QUOTED, Kind.QUOTED, Kind.QUOTED, Kind.END);
        assertThat(tokens).extracting(SqlToken::text).containsExactly("a`b", "select", "x.y", "");
        assertThat(tokens.get(1).isWord("select")).isFalse();
    }

    @Test
    void shouldUnescapeStringsWhenTheyHoldEscapesOrDoubledQuotes() {
        List<SqlToken> tokens =
                SqlLexer.tokenize(
                        "'it''s' \"say \"\"hi\"\"\" 'a\\nb\\tc\\0d\\\\e\\'f\\Zg\\%h\\_i\\qj'",
                        MARIADB_1011);

        assertThat(tokens)
                .extracting(SqlToken::text)
                .containsExactly("it's", "say \"hi\"", "a\nb\tc\0d\\e'f\u001Ag\\%h\\_iqj", "");
        assertThat(tokens.get(0).kind()).isEqualTo(Kind.STRING);
    }

    @Test
    void shouldReadNumbersAndPrefixedLiteralsWhenTheyAppear() {
        List<SqlToken> tokens =
                SqlLexer.tokenize(
                        "12 1.5e3 .5 0x1F 0b101 x'0F' B'01' N'nat' -2 1e-3", MARIADB_1011);

        assertThat(tokens)
                .extracting(SqlToken::text)
                .containsExactly(
                        "12", "1.5e3", ".5", "0x1F", "0b101", "x'0F'", "b'01'", "nat", "-", "2",
                        "1e-3", "");
        assertThat(tokens.get(7).kind()).isEqualTo(Kind.STRING);
        assertThat(tokens.get(5).kind()).isEqualTo(Kind.NUMBER);
    }

    @Test
    void shouldReadIdentifiersWhenTheyStartWithDigitsOrHoldUnicode() {
        List<SqlToken> tokens = SqlLexer.tokenize("1st 0xyz ünï$x db.5t t.c", MARIADB_1011);

        assertThat(tokens)
                .extracting(SqlToken::text)
                .containsExactly("1st", "0xyz", "ünï$x", "db", ".", "5t", "t", ".", "c", "");
        assertThat(tokens.get(0).kind()).isEqualTo(Kind.WORD);
        assertThat(tokens.get(1).kind()).isEqualTo(Kind.WORD);
    }

    @Test
    void shouldCombineOperatorsWhenTheyHaveTwoOrThreeChars() {
        assertThat(texts("a<=>b<=c>=d<>e!=f:=g||h&&i<<j>>k->l->>m"))
                .containsExactly(
                        "a", "<=>", "b", "<=", "c", ">=", "d", "<>", "e", "!=", "f", ":=", "g",
                        "||", "h", "&&", "i", "<<", "j", ">>", "k", "->", "l", "->>", "m");
    }

    @Test
    void shouldFailWhenAStringCommentOrIdentifierIsUnterminated() {
        assertThatThrownBy(() -> SqlLexer.tokenize("'abc", MARIADB_1011))
                .hasMessage("unterminated string: position=0");
        assertThatThrownBy(() -> SqlLexer.tokenize("a `b", MARIADB_1011))
                .hasMessage("unterminated identifier: position=2");
        assertThatThrownBy(() -> SqlLexer.tokenize("a /* b", MARIADB_1011))
                .hasMessage("unterminated comment: position=2");
        assertThatThrownBy(() -> SqlLexer.tokenize("a /*!40101 b", MARIADB_1011))
                .hasMessage("unterminated executable comment");
        // MySQL has no nested comments: rather than guess which */ closes what, give up.
        assertThatThrownBy(() -> SqlLexer.tokenize("a /*!50100 b /* c */ d", MARIADB_1011))
                .hasMessage("unterminated executable comment");
    }

    private static List<String> texts(String sql) {
        List<SqlToken> tokens = SqlLexer.tokenize(sql, MARIADB_1011);
        return tokens.subList(0, tokens.size() - 1).stream().map(SqlToken::text).toList();
    }
}

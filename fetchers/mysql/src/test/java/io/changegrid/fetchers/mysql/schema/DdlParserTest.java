package io.changegrid.fetchers.mysql.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.fetchers.mysql.schema.AlterSpec.Position;
import java.util.List;
import org.junit.jupiter.api.Test;

class DdlParserTest {

    private static final ServerDialect DIALECT = ServerDialect.mariaDb("utf8mb4");
    private static final TableName T = new TableName("shop", "t");

    @Test
    void shouldReadEveryAlterSpecificationWhenManyAreCommaSeparated() {
        DdlStatement statement =
                parse(
                        "alter online ignore table if exists t wait 3"
                                + " ADD COLUMN IF NOT EXISTS (a INT, b INT), DROP x,"
                                + " CHANGE COLUMN IF EXISTS c d INT FIRST, MODIFY e INT AFTER f,"
                                + " RENAME COLUMN g TO h, DROP PRIMARY KEY, DROP INDEX `PRIMARY`,"
                                + " ADD CONSTRAINT PRIMARY KEY (a), CONVERT TO CHARACTER SET latin1"
                                + " COLLATE latin1_bin, DEFAULT CHARSET=utf8, RENAME TO x.y,"
                                + " ALTER COLUMN a SET DEFAULT (1 + 2), ADD INDEX i (b), ENGINE=InnoDB"
                                + " ROW_FORMAT=DYNAMIC, DROP FOREIGN KEY IF EXISTS fk, DROP CHECK c1");

        DdlStatement.AlterTable alter = (DdlStatement.AlterTable) statement;
        assertThat(alter.name()).isEqualTo(T);
        assertThat(alter.ifExists()).isTrue();
        assertThat(alter.specs()).hasSize(12);
        assertThat(alter.specs().get(0)).isInstanceOf(AlterSpec.AddColumn.class);
        assertThat(((AlterSpec.AddColumn) alter.specs().get(1)).definition().name()).isEqualTo("b");
        assertThat(((AlterSpec.AddColumn) alter.specs().get(1)).ifNotExists()).isTrue();
        assertThat(alter.specs().get(2)).isEqualTo(new AlterSpec.DropColumn("x", false));
        AlterSpec.ChangeColumn change = (AlterSpec.ChangeColumn) alter.specs().get(3);
        assertThat(change.oldName()).isEqualTo("c");
        assertThat(change.definition().name()).isEqualTo("d");
        assertThat(change.position()).isEqualTo(new Position(true, null));
        assertThat(change.ifExists()).isTrue();
        AlterSpec.ChangeColumn modify = (AlterSpec.ChangeColumn) alter.specs().get(4);
        assertThat(modify.oldName()).isEqualTo("e");
        assertThat(modify.position()).isEqualTo(new Position(false, "f"));
        assertThat(alter.specs().subList(5, 12))
                .containsExactly(
                        new AlterSpec.RenameColumn("g", "h", false),
                        new AlterSpec.DropPrimaryKey(),
                        new AlterSpec.DropPrimaryKey(),
                        new AlterSpec.AddPrimaryKey(List.of("a")),
                        new AlterSpec.ConvertCharset("latin1", "latin1_bin"),
                        new AlterSpec.DefaultCharset("utf8", null),
                        new AlterSpec.RenameTable(new TableName("x", "y")));
    }

    @Test
    void shouldReadTheRenameWhenAlterTableEndsWithIt() {
        DdlStatement.AlterTable alter =
                (DdlStatement.AlterTable) parse("ALTER TABLE t RENAME AS `x`.`a.b`");

        assertThat(alter.specs())
                .containsExactly(new AlterSpec.RenameTable(new TableName("x", "a.b")));
    }

    @Test
    void shouldResolveSynonymsWhenReadingTypes() {
        DdlStatement.CreateTable create =
                (DdlStatement.CreateTable)
                        parse(
                                "CREATE TABLE t (a INTEGER UNSIGNED ZEROFILL, b NUMERIC(5,2), c DOUBLE PRECISION,"
                                        + " d NATIONAL CHARACTER VARYING(3), e LONG VARBINARY, f BOOL, g SERIAL,"
                                        + " h ENUM('x ', 'y''z'), i CHAR(2) ASCII BINARY)");

        List<TypeSpec> types = create.columns().stream().map(ColumnDefinition::type).toList();
        assertThat(types.get(0))
                .isEqualTo(
                        new TypeSpec("int", null, null, List.of(), true, true, null, null, false));
        assertThat(types.get(1))
                .isEqualTo(
                        new TypeSpec("decimal", 5, 2, List.of(), false, false, null, null, false));
        assertThat(types.get(2).base()).isEqualTo("double");
        assertThat(types.get(3))
                .isEqualTo(
                        new TypeSpec(
                                "varchar", 3, null, List.of(), false, false, "utf8mb3", null,
                                false));
        assertThat(types.get(4).base()).isEqualTo("mediumblob");
        assertThat(types.get(5))
                .isEqualTo(
                        new TypeSpec(
                                "tinyint", 1, null, List.of(), false, false, null, null, false));
        assertThat(types.get(6).unsigned()).isTrue();
        assertThat(create.columns().get(6).autoIncrement()).isTrue();
        assertThat(types.get(7).labels()).containsExactly("x", "y'z");
        assertThat(types.get(8).charset()).isEqualTo("latin1");
    }

    @Test
    void shouldReadColumnAttributesWhenTheyComeInAnyOrder() {
        DdlStatement.CreateTable create =
                (DdlStatement.CreateTable)
                        parse(
                                "CREATE TABLE t (a INT COMMENT 'x' NOT NULL DEFAULT 1 KEY,"
                                        + " b VARCHAR(3) COLLATE latin1_bin NULL CHARACTER SET latin1,"
                                        + " c INT AUTO_INCREMENT UNIQUE,"
                                        + " d TIMESTAMP(6) DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),"
                                        + " e INT CONSTRAINT chk CHECK (e > 0) REFERENCES p (id) ON DELETE SET NULL ON UPDATE NO ACTION,"
                                        + " f INT GENERATED ALWAYS AS ((a + 1) * 2) VIRTUAL INVISIBLE)");

        List<ColumnDefinition> columns = create.columns();
        assertThat(columns.get(0).nullable()).isFalse();
        assertThat(columns.get(0).primaryKey()).isTrue();
        assertThat(columns.get(1).nullable()).isTrue();
        assertThat(columns.get(1).type().charset()).isEqualTo("latin1");
        assertThat(columns.get(1).type().collation()).isEqualTo("latin1_bin");
        assertThat(columns.get(2).autoIncrement()).isTrue();
        assertThat(columns.get(2).primaryKey()).isFalse();
        assertThat(columns.get(3).nullable()).isNull();
        assertThat(columns)
                .extracting(ColumnDefinition::name)
                .containsExactly("a", "b", "c", "d", "e", "f");
    }

    @Test
    void shouldReadTableLevelKeyAndOptionsWhenCreatingATable() {
        DdlStatement.CreateTable create =
                (DdlStatement.CreateTable)
                        parse(
                                "CREATE TABLE IF NOT EXISTS `db`.`t` (a INT, b INT, CONSTRAINT `pk` PRIMARY KEY (b, a),"
                                        + " FOREIGN KEY (a) REFERENCES x (y), UNIQUE (a), CHECK (a > b))"
                                        + " ENGINE = InnoDB, DEFAULT CHARACTER SET = 'latin1' COLLATE latin1_bin COMMENT 'c'"
                                        + " PARTITION BY HASH (a) PARTITIONS 4;");

        assertThat(create.name()).isEqualTo(new TableName("db", "t"));
        assertThat(create.ifNotExists()).isTrue();
        assertThat(create.primaryKey()).containsExactly("b", "a");
        assertThat(create.charset()).isEqualTo("latin1");
        assertThat(create.collation()).isEqualTo("latin1_bin");
    }

    @Test
    void shouldReadTheSourceWhenCreatingLikeAnotherTable() {
        assertThat(parse("CREATE TABLE t LIKE s.u"))
                .isEqualTo(
                        new DdlStatement.CreateTableLike(T, new TableName("s", "u"), false, false));
        assertThat(parse("CREATE OR REPLACE TABLE t (LIKE u)"))
                .isEqualTo(
                        new DdlStatement.CreateTableLike(
                                T, new TableName("shop", "u"), true, false));
    }

    @Test
    void shouldReadServerGeneratedDropsWhenTheBinlogHasThem() {
        assertThat(parse("DROP TABLE IF EXISTS `shop`.`a`,`b` /* generated by server */"))
                .isEqualTo(
                        new DdlStatement.DropTables(
                                List.of(new TableName("shop", "a"), new TableName("shop", "b")),
                                true));
        assertThat(parse("DROP TEMPORARY TABLE IF EXISTS `t` /* generated by server */"))
                .isInstanceOf(DdlStatement.Ignored.class);
        assertThat(parse("DROP INDEX `PRIMARY` ON t"))
                .isEqualTo(
                        new DdlStatement.AlterTable(
                                T, false, List.of(new AlterSpec.DropPrimaryKey())));
        assertThat(parse("DROP INDEX i ON t")).isInstanceOf(DdlStatement.Ignored.class);
    }

    @Test
    void shouldReadRenamesInOrderWhenSeveralAreGiven() {
        assertThat(parse("RENAME TABLES a WAIT 1 TO b, b NOWAIT TO x.c"))
                .isEqualTo(
                        new DdlStatement.RenameTables(
                                List.of(
                                        new DdlStatement.Rename(
                                                new TableName("shop", "a"),
                                                new TableName("shop", "b")),
                                        new DdlStatement.Rename(
                                                new TableName("shop", "b"),
                                                new TableName("x", "c"))),
                                false));
    }

    @Test
    void shouldReadDatabaseStatementsWhenTheyNameCharsets() {
        assertThat(
                        parse(
                                "CREATE SCHEMA IF NOT EXISTS d DEFAULT CHARACTER SET = latin1 DEFAULT COLLATE latin1_bin COMMENT 'x'"))
                .isEqualTo(
                        new DdlStatement.CreateDatabase("d", false, true, "latin1", "latin1_bin"));
        assertThat(parse("ALTER DATABASE COLLATE = utf8mb4_bin"))
                .isEqualTo(new DdlStatement.AlterDatabase("shop", null, "utf8mb4_bin"));
        assertThat(parse("ALTER DATABASE `charset` CHARSET ascii"))
                .isEqualTo(new DdlStatement.AlterDatabase("charset", "ascii", null));
        assertThat(parse("ALTER DATABASE `#mysql50#a-b` UPGRADE DATA DIRECTORY NAME"))
                .isInstanceOf(DdlStatement.Ignored.class);
        assertThat(parse("DROP SCHEMA IF EXISTS d"))
                .isEqualTo(new DdlStatement.DropDatabase("d", true));
    }

    @Test
    void shouldTruncateWhenTheTableKeywordIsLeftOut() {
        assertThat(parse("TRUNCATE t")).isEqualTo(new DdlStatement.TruncateTable(T));
        assertThat(parse("truncate table `shop`.t")).isEqualTo(new DdlStatement.TruncateTable(T));
    }

    @Test
    void shouldNameTheTablesWhenAStatementCannotBeParsed() {
        assertThatThrownBy(() -> parse("ALTER TABLE t ADD COLUMN (a INT"))
                .isInstanceOfSatisfying(
                        UnsupportedDdlException.class,
                        e -> assertThat(e.tables()).containsExactly(T))
                .hasMessageContaining("expected=')'");
        assertThatThrownBy(() -> DdlParser.parse("ALTER TABLE t ADD a INT", null, DIALECT))
                .hasMessageContaining("no default database");
    }

    private static DdlStatement parse(String sql) {
        return DdlParser.parse(sql, "shop", DIALECT);
    }
}

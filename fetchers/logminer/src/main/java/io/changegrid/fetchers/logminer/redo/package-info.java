/**
 * LogMiner's {@code SQL_REDO} text: the fixed statement shapes LogMiner renders for one row change
 * ({@code insert into "S"."T"("A") values ('1');}, {@code update .. set .. where ..;}, {@code
 * delete from .. where ..;}) parsed into column names and untyped {@link
 * io.changegrid.fetchers.logminer.redo.RedoValue}s. What a value means comes from the column's
 * type, in {@code io.changegrid.fetchers.logminer.schema}, never from the text.
 */
package io.changegrid.fetchers.logminer.redo;

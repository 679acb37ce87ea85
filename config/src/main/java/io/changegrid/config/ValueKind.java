package io.changegrid.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a setting's text (or YAML scalar or list) becomes a typed value, and how the reference
 * documentation names that type. Parsing failures are {@link IllegalArgumentException}s whose
 * message says what was expected; {@link ConfigSchema} adds the key path and the offending text.
 *
 * @param <T> the Java type of the value
 */
public interface ValueKind<T> {

    /** Parses a raw value: a String, Number, Boolean or List from YAML or the command line. */
    T parse(Object raw);

    /** The type's name in the configuration reference, e.g. {@code duration (250ms, 5s, 2m)}. */
    String describe();

    /** Renders a value the way it would be written in a config file. */
    default String format(T value) {
        return String.valueOf(value);
    }

    ValueKind<String> STRING = simple("string", Object::toString);

    ValueKind<Integer> INT =
            simple(
                    "integer",
                    raw -> {
                        long value = parseLong(raw);
                        if (value != (int) value) {
                            throw new IllegalArgumentException(
                                    "expected an integer within int range");
                        }
                        return (int) value;
                    });

    ValueKind<Long> LONG = simple("integer", ValueKind::parseLong);

    ValueKind<Boolean> BOOLEAN =
            simple(
                    "boolean (true, false)",
                    raw -> {
                        String text = raw.toString().toLowerCase(Locale.ROOT);
                        return switch (text) {
                            case "true" -> true;
                            case "false" -> false;
                            default -> throw new IllegalArgumentException("expected true or false");
                        };
                    });

    ValueKind<Path> PATH = simple("path", raw -> Path.of(raw.toString()));

    /** Durations written with a unit: {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h}. */
    ValueKind<Duration> DURATION =
            new ValueKind<>() {
                @Override
                public Duration parse(Object raw) {
                    String text = raw.toString().trim().toLowerCase(Locale.ROOT);
                    int split = 0;
                    while (split < text.length() && Character.isDigit(text.charAt(split))) {
                        split++;
                    }
                    if (split == 0 || split == text.length()) {
                        throw new IllegalArgumentException(
                                "expected a number and a unit (ms, s, m, h)");
                    }
                    long amount = Long.parseLong(text.substring(0, split));
                    return switch (text.substring(split)) {
                        case "ms" -> Duration.ofMillis(amount);
                        case "s" -> Duration.ofSeconds(amount);
                        case "m" -> Duration.ofMinutes(amount);
                        case "h" -> Duration.ofHours(amount);
                        default ->
                                throw new IllegalArgumentException(
                                        "expected a unit of ms, s, m or h");
                    };
                }

                @Override
                public String describe() {
                    return "duration (250ms, 5s, 2m, 1h)";
                }

                @Override
                public String format(Duration value) {
                    long millis = value.toMillis();
                    if (millis % 3_600_000 == 0) {
                        return millis / 3_600_000 + "h";
                    }
                    if (millis % 60_000 == 0) {
                        return millis / 60_000 + "m";
                    }
                    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
                }
            };

    /** Byte sizes written with a binary unit: {@code 512KiB}, {@code 64MiB}, {@code 8GiB}. */
    ValueKind<Long> BYTES =
            new ValueKind<>() {
                @Override
                public Long parse(Object raw) {
                    String text = raw.toString().trim();
                    int split = 0;
                    while (split < text.length() && Character.isDigit(text.charAt(split))) {
                        split++;
                    }
                    if (split == 0) {
                        throw new IllegalArgumentException(
                                "expected a number and a unit (B, KiB, MiB, GiB, TiB)");
                    }
                    long amount = Long.parseLong(text.substring(0, split));
                    long unit =
                            switch (text.substring(split).trim()) {
                                case "", "B" -> 1L;
                                case "KiB", "KB", "K" -> 1L << 10;
                                case "MiB", "MB", "M" -> 1L << 20;
                                case "GiB", "GB", "G" -> 1L << 30;
                                case "TiB", "TB", "T" -> 1L << 40;
                                default ->
                                        throw new IllegalArgumentException(
                                                "expected a unit of B, KiB, MiB, GiB or TiB");
                            };
                    return Math.multiplyExact(amount, unit);
                }

                @Override
                public String describe() {
                    return "byte size (64MiB, 8GiB)";
                }

                @Override
                public String format(Long value) {
                    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
                    int unit = 0;
                    long amount = value;
                    while (unit < units.length - 1 && amount != 0 && amount % 1024 == 0) {
                        amount /= 1024;
                        unit++;
                    }
                    return amount + units[unit];
                }
            };

    /** A YAML list (or a comma-separated string) of strings. */
    ValueKind<List<String>> STRING_LIST =
            new ValueKind<>() {
                @Override
                public List<String> parse(Object raw) {
                    List<String> values = new ArrayList<>();
                    if (raw instanceof List<?> list) {
                        for (Object item : list) {
                            if (item == null
                                    || item instanceof List
                                    || item instanceof java.util.Map) {
                                throw new IllegalArgumentException("expected a list of strings");
                            }
                            values.add(item.toString());
                        }
                    } else {
                        for (String item : raw.toString().split(",")) {
                            if (!item.isBlank()) {
                                values.add(item.trim());
                            }
                        }
                    }
                    return List.copyOf(values);
                }

                @Override
                public String describe() {
                    return "list of strings";
                }
            };

    /** One of an enum's constants, written in lower case with dashes or as the constant name. */
    static <E extends Enum<E>> ValueKind<E> oneOf(Class<E> type) {
        return new ValueKind<>() {
            @Override
            public E parse(Object raw) {
                String name = raw.toString().trim().toUpperCase(Locale.ROOT).replace('-', '_');
                try {
                    return Enum.valueOf(type, name);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("expected one of " + describe());
                }
            }

            @Override
            public String describe() {
                List<String> names = new ArrayList<>();
                for (E constant : type.getEnumConstants()) {
                    names.add(format(constant));
                }
                return String.join(", ", names);
            }

            @Override
            public String format(E value) {
                return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
            }
        };
    }

    private static <T> ValueKind<T> simple(
            String name, java.util.function.Function<Object, T> parser) {
        return new ValueKind<>() {
            @Override
            public T parse(Object raw) {
                return parser.apply(raw);
            }

            @Override
            public String describe() {
                return name;
            }
        };
    }

    private static long parseLong(Object raw) {
        if (raw instanceof Number number && !(raw instanceof Double) && !(raw instanceof Float)) {
            return number.longValue();
        }
        try {
            return Long.parseLong(raw.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected an integer");
        }
    }
}

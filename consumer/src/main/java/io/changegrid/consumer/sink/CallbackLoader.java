package io.changegrid.consumer.sink;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.config.ConsumerSettings;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * Makes the callback {@code callback.type} names: {@code jsonl}, {@code count}, or the class name
 * of a {@link ConsumerCallback} with a public no-argument constructor on the class path.
 */
public final class CallbackLoader {

    private CallbackLoader() {}

    /**
     * @throws ConfigException naming {@code callback.type} if the class cannot be made into a
     *     callback
     * @throws IOException if the jsonl file cannot be opened
     */
    public static ConsumerCallback load(Config config) throws IOException {
        String type = config.get(ConsumerSettings.CALLBACK_TYPE).trim();
        return switch (type) {
            case "jsonl" ->
                    new JsonLinesFileCallback(config.get(ConsumerSettings.CALLBACK_JSONL_FILE));
            case "count" -> new CountingCallback();
            default -> instantiate(type);
        };
    }

    private static ConsumerCallback instantiate(String className) {
        Class<?> type;
        try {
            type = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw problem(className, "no such class on the class path (or not jsonl or count)");
        }
        if (!ConsumerCallback.class.isAssignableFrom(type)) {
            throw problem(className, "does not implement " + ConsumerCallback.class.getName());
        }
        try {
            return (ConsumerCallback) type.getConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw problem(className, "has no public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw problem(className, "constructor threw " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw problem(className, "cannot be instantiated: " + e);
        }
    }

    private static ConfigException problem(String className, String what) {
        return new ConfigException(
                List.of("bad value: path=callback.type, value=" + className + ": " + what));
    }
}

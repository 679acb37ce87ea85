package io.changegrid.service;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns SIGTERM and SIGINT into a requested stop, so that a component ends the way a service
 * manager expects: after its final checkpoint, with a last log line saying so and exit status 0.
 *
 * <p>The JVM's own handling of these signals runs the shutdown hooks and then exits with 128 plus
 * the signal's number (143 for SIGTERM), however cleanly the hooks finished, and it does not wait
 * for the main thread: its last log line races the exit and is often lost. systemd and Kubernetes
 * read 143 as a failure. Here the signal only asks the component to stop; the main thread sees the
 * component end, logs, and returns its exit status as on any other end.
 *
 * <p>A second signal while the stop is in progress exits at once with 128 plus the signal's number
 * (shutdown hooks still run), for the operator who cannot wait for a final checkpoint.
 *
 * <p>{@code sun.misc.Signal} is reached by reflection, as Kafka's {@code LoggingSignalHandler}
 * does: javac's warning on that API cannot be suppressed, and the build treats warnings as errors.
 * Where the JVM has no such class, the JVM's own handling stays and {@link #install} says so in the
 * log.
 */
public final class RequestedStop {

    private static final Logger LOG = LoggerFactory.getLogger(RequestedStop.class);
    private static final List<String> SIGNALS = List.of("TERM", "INT");

    private final String component;
    private final Runnable stop;
    private final AtomicBoolean requested = new AtomicBoolean();

    private RequestedStop(String component, Runnable stop) {
        this.component = component;
        this.stop = stop;
    }

    /**
     * Makes SIGTERM and SIGINT call {@code stop} once, on a thread of its own named after {@code
     * component}. {@code stop} asks the component to end; the caller's main thread waits for that
     * end as it always does.
     */
    public static void install(String component, Runnable stop) {
        RequestedStop handler = new RequestedStop(component, stop);
        try {
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Method name = signalClass.getMethod("getName");
            Method number = signalClass.getMethod("getNumber");
            InvocationHandler onSignal =
                    (proxy, method, args) -> {
                        if (method.getName().equals("handle")) {
                            handler.onSignal(
                                    (String) name.invoke(args[0]), (int) number.invoke(args[0]));
                            return null;
                        }
                        return objectMethod(proxy, method, args);
                    };
            Object proxy =
                    Proxy.newProxyInstance(
                            RequestedStop.class.getClassLoader(),
                            new Class<?>[] {handlerClass},
                            onSignal);
            for (String signal : SIGNALS) {
                handle.invoke(
                        null, signalClass.getConstructor(String.class).newInstance(signal), proxy);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "{}: cannot handle SIGTERM/SIGINT on this JVM ({}); a requested stop still runs"
                            + " the shutdown hooks but exits with 128 + the signal's number",
                    component,
                    e.toString());
        }
    }

    private void onSignal(String name, int number) {
        if (!requested.compareAndSet(false, true)) {
            LOG.warn("{}: SIG{} again: exiting now, without a final checkpoint", component, name);
            System.exit(128 + number);
            return;
        }
        LOG.info("{}: SIG{} received: stopping after the final checkpoint", component, name);
        Thread stopping = new Thread(stop, component + "-stop");
        stopping.start();
    }

    private static Object objectMethod(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "RequestedStop handler";
            default:
                throw new UnsupportedOperationException(method.getName());
        }
    }
}

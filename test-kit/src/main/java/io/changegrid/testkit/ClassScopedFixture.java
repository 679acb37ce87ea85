package io.changegrid.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.opentest4j.TestAbortedException;

/**
 * The JUnit 5 plumbing shared by the fixture extensions: one fixture per test class, started before
 * the class's first test and closed after its last, whether tests passed or not.
 *
 * <p>The fixture is kept in the class's {@link ExtensionContext.Store}; JUnit closes {@link
 * AutoCloseable} values when that context ends, after every {@code @AfterAll} method, and also when
 * a test or callback failed. {@code @Nested} classes find the enclosing class's value in the store
 * and so share its fixture instead of starting a second one.
 *
 * <p>A fixture that cannot run on this machine aborts its start with a JUnit assumption (MySQL
 * without Docker). That abort is replayed before each test rather than left to fail the class's
 * {@code beforeAll}: Maven's test report counts an aborted class as zero tests run, which reads as
 * a pass, while aborted tests are counted, and listed, as skipped with the reason.
 *
 * @param <T> the fixture type
 */
abstract class ClassScopedFixture<T extends AutoCloseable>
        implements BeforeAllCallback, BeforeEachCallback {
    private static final Namespace NAMESPACE = Namespace.create(ClassScopedFixture.class);

    private final Class<T> type;
    private volatile T fixture;
    private volatile TestAbortedException abort;

    ClassScopedFixture(Class<T> type) {
        this.type = type;
    }

    /** Starts the fixture; called at most once per test class. */
    protected abstract T start();

    @Override
    public final void beforeAll(ExtensionContext context) {
        fixture = null;
        abort = null;
        try {
            // Keyed by this extension instance, so two extensions in one class get two fixtures.
            fixture = context.getStore(NAMESPACE).getOrComputeIfAbsent(this, key -> start(), type);
        } catch (TestAbortedException e) {
            abort = e;
        }
    }

    @Override
    public final void beforeEach(ExtensionContext context) {
        abortIfUnavailable();
    }

    private void abortIfUnavailable() {
        var aborted = abort;
        if (aborted != null) {
            throw new TestAbortedException(aborted.getMessage(), aborted);
        }
    }

    /**
     * The fixture of the running test class.
     *
     * @throws TestAbortedException if the fixture cannot run on this machine
     * @throws IllegalStateException if it was never started
     */
    final T fixture() {
        abortIfUnavailable();
        var started = fixture;
        if (started == null) {
            throw new IllegalStateException(
                    getClass().getSimpleName()
                            + " has no "
                            + type.getSimpleName()
                            + ": register it with @RegisterExtension on a static field, and use it"
                            + " from a test, @BeforeAll, @BeforeEach or later");
        }
        return started;
    }
}

package io.changegrid.console.control;

/** A control operation refused before anything was written; the HTTP status says why. */
public final class ControlRejected extends Exception {

    private static final long serialVersionUID = 1L;

    private final int httpStatus;

    public ControlRejected(int httpStatus, String message) {
        super(message);
        this.httpStatus = httpStatus;
    }

    /** 400 for bad input, 404 for an unknown group, 409 for a state that forbids it. */
    public int httpStatus() {
        return httpStatus;
    }
}

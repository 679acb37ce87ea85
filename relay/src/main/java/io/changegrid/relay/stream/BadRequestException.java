package io.changegrid.relay.stream;

/**
 * A request parameter the relay cannot accept; answered with 400 naming the parameter and value.
 */
public final class BadRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BadRequestException(String parameter, String value, String expected) {
        super("bad parameter: name=" + parameter + ", value=" + value + ": " + expected);
    }
}

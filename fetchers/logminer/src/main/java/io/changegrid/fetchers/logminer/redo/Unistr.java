package io.changegrid.fetchers.logminer.redo;

/**
 * Decodes the argument of Oracle's {@code UNISTR}: {@code \XXXX} is one UTF-16 code unit in hex (a
 * character outside the BMP is two, a surrogate pair), {@code \\} is a backslash, anything else
 * stands for itself. LogMiner writes national-character values so.
 */
final class Unistr {

    private Unistr() {}

    static String decode(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder decoded = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                decoded.append(c);
            } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                decoded.append('\\');
                i++;
            } else if (isHex(text, i + 1)) {
                decoded.append((char) Integer.parseInt(text, i + 1, i + 5, 16));
                i += 4;
            } else {
                throw new RedoSyntaxException(
                        "UNISTR escape is not \\XXXX or \\\\: offset=" + i + ", text=" + text);
            }
        }
        return decoded.toString();
    }

    private static boolean isHex(String text, int from) {
        if (from + 4 > text.length()) {
            return false;
        }
        for (int i = from; i < from + 4; i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}

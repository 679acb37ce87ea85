package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a relay's stream in its JSON form into whole transactions of row events, each event a map
 * of the JSON line's fields (numbers as Long or BigDecimal, exactly as written).
 */
final class JsonStreamReader {

    private static final JsonFactory JSON = new JsonFactory();

    private final StreamClient client;
    private final List<List<Map<String, Object>>> transactions = new ArrayList<>();
    private List<Map<String, Object>> open = new ArrayList<>();
    private long checkpoint = -1;
    private long rows;

    JsonStreamReader(StreamClient client) {
        this.client = client;
    }

    /** Reads what the relay has now; returns the row events read so far. */
    long poll() throws Exception {
        HttpResponse<String> response =
                client.getText(
                        "/v1/stream?from="
                                + checkpoint
                                + "&timeoutMs=200&maxBytes=1048576&format=json");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        for (String line : response.body().lines().toList()) {
            Map<String, Object> event = parse(line);
            String op = (String) event.get("op");
            switch (op) {
                case "INSERT", "UPDATE", "DELETE" -> {
                    open.add(event);
                    rows++;
                }
                case "END_OF_TRANSACTION" -> {
                    if (!open.isEmpty()) {
                        transactions.add(open);
                        open = new ArrayList<>();
                    }
                }
                default -> {} // heartbeats and schema changes are no row stream
            }
        }
        checkpoint = StreamClient.lastScn(response);
        return rows;
    }

    /** Whole transactions read so far, in SCN order. */
    List<List<Map<String, Object>>> transactions() {
        return transactions;
    }

    static Map<String, Object> parse(String line) throws IOException {
        try (JsonParser parser = JSON.createParser(line)) {
            parser.nextToken();
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) tree(parser);
            return map;
        }
    }

    private static Object tree(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    parser.nextToken();
                    map.put(field, tree(parser));
                }
                return map;
            }
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    list.add(tree(parser));
                }
                return list;
            }
            case VALUE_NUMBER_INT -> {
                return parser.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> {
                return parser.getDecimalValue();
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return parser.getBooleanValue();
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> {
                return parser.getText();
            }
        }
    }
}

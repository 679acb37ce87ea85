package io.changegrid.fetchers.goldengate;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Parses one {@code <transaction>} element of GoldenGate's XML output, as LinkedIn Databus read it:
 *
 * <pre>{@code
 * <transaction timestamp="2026-11-26:10:00:00.000000">
 *   <dbupdate table="SHOP.ORDERS" type="update" image="before">
 *     <columns><column name="ID" key="true">42</column><column name="NOTE" status="null"/></columns>
 *     <tokens><token name="TK-XID">7.12.345</token><token name="TK-CSN">918273</token></tokens>
 *   </dbupdate>
 *   <dbupdate table="SHOP.ORDERS" type="update">...the after image...</dbupdate>
 * </transaction>
 * }</pre>
 *
 * An update's before image is the {@code image="before"} element right before it; a delete's
 * columns are its before image. A column with {@code status="null"} is NULL; an absent column is
 * missing. The element is a whole transaction: GoldenGate's own marker of its end. Small, legacy
 * path: values are kept as text here and typed by the caller with the table's schema.
 */
final class XmlTransactionParser {

    /** What ends a record in an XML trail file. */
    static final byte[] END = "</transaction>".getBytes(StandardCharsets.US_ASCII);

    /** One operation: images as column name to text (null: NULL), null when absent. */
    record XmlOperation(
            String table,
            char opType,
            List<String> key,
            Map<String, String> before,
            Map<String, String> after) {}

    /** One transaction. */
    record XmlTransaction(
            String timestamp, String xid, String csn, List<XmlOperation> operations) {}

    private final XMLInputFactory factory = XMLInputFactory.newFactory();
    private final String xidToken;
    private final String csnToken;

    XmlTransactionParser(String xidToken, String csnToken) {
        this.xidToken = xidToken;
        this.csnToken = csnToken;
        // Trail data is data: no DTDs, no external entities.
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    }

    /**
     * Parses the element in {@code buffer[offset, offset + length)}.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    XmlTransaction parse(byte[] buffer, int offset, int length) {
        try {
            XMLStreamReader xml =
                    factory.createXMLStreamReader(
                            new ByteArrayInputStream(buffer, offset, length), "UTF-8");
            try {
                return transaction(xml);
            } finally {
                xml.close();
            }
        } catch (XMLStreamException e) {
            throw new IllegalArgumentException("invalid XML: " + e.getMessage(), e);
        }
    }

    private XmlTransaction transaction(XMLStreamReader xml) throws XMLStreamException {
        xml.nextTag();
        expect(xml, "transaction");
        String timestamp = xml.getAttributeValue(null, "timestamp");
        if (timestamp == null) {
            throw new IllegalArgumentException("transaction without its timestamp attribute");
        }
        List<XmlOperation> operations = new ArrayList<>();
        String[] tokens = new String[2];
        XmlOperation pendingBefore = null;
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            expect(xml, "dbupdate");
            String table = required(xml, "table");
            String type = required(xml, "type");
            boolean beforeImage = "before".equals(xml.getAttributeValue(null, "image"));
            List<String> key = new ArrayList<>();
            Map<String, String> columns = new LinkedHashMap<>();
            while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
                switch (xml.getLocalName()) {
                    case "columns" -> columns(xml, columns, key);
                    case "tokens" -> tokens(xml, tokens);
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown element in dbupdate: element=" + xml.getLocalName());
                }
            }
            char op =
                    switch (type) {
                        case "insert" -> 'I';
                        case "update" -> 'U';
                        case "delete" -> 'D';
                        default ->
                                throw new IllegalArgumentException(
                                        "unknown dbupdate type: value="
                                                + type
                                                + " (expected insert, update or delete)");
                    };
            if (beforeImage && op == 'U') {
                if (pendingBefore != null) {
                    throw new IllegalArgumentException(
                            "two before images in a row: table=" + table);
                }
                pendingBefore = new XmlOperation(table, op, key, columns, null);
                continue;
            }
            if (op == 'U') {
                if (pendingBefore == null || !pendingBefore.table().equals(table)) {
                    throw new IllegalArgumentException(
                            "update without its before image (image=\"before\"): table=" + table);
                }
                operations.add(new XmlOperation(table, op, key, pendingBefore.before(), columns));
                pendingBefore = null;
            } else if (pendingBefore != null) {
                throw new IllegalArgumentException(
                        "before image without its update: table=" + table);
            } else {
                operations.add(
                        new XmlOperation(
                                table,
                                op,
                                key,
                                op == 'D' ? columns : null,
                                op == 'I' ? columns : null));
            }
        }
        if (pendingBefore != null) {
            throw new IllegalArgumentException(
                    "before image without its update: table=" + pendingBefore.table());
        }
        return new XmlTransaction(timestamp, tokens[0], tokens[1], operations);
    }

    private static void columns(XMLStreamReader xml, Map<String, String> columns, List<String> key)
            throws XMLStreamException {
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            expect(xml, "column");
            String name = required(xml, "name");
            if ("true".equals(xml.getAttributeValue(null, "key"))) {
                key.add(name);
            }
            boolean isNull = "null".equals(xml.getAttributeValue(null, "status"));
            String text = xml.getElementText();
            columns.put(name, isNull ? null : text);
        }
    }

    private void tokens(XMLStreamReader xml, String[] tokens) throws XMLStreamException {
        while (xml.nextTag() == XMLStreamConstants.START_ELEMENT) {
            expect(xml, "token");
            String name = required(xml, "name");
            String text = xml.getElementText();
            if (name.equals(xidToken)) {
                tokens[0] = text;
            } else if (name.equals(csnToken)) {
                tokens[1] = text;
            }
        }
    }

    private static void expect(XMLStreamReader xml, String element) {
        if (!xml.getLocalName().equals(element)) {
            throw new IllegalArgumentException(
                    "unexpected element: expected=" + element + ", found=" + xml.getLocalName());
        }
    }

    private static String required(XMLStreamReader xml, String attribute) {
        String value = xml.getAttributeValue(null, attribute);
        if (value == null) {
            throw new IllegalArgumentException(
                    xml.getLocalName() + " without its " + attribute + " attribute");
        }
        return value;
    }
}

package dev.gantry.azure.storage;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * One page of List Blobs ({@code EnumerationResults}: {@code Blobs/Blob/Name}, {@code Properties/Last-Modified} and
 * {@code Content-Length}, and {@code NextMarker}, empty on the last page), read with the JDK's XML parser.
 */
record BlobListing(List<StoredBlob> blobs, String nextMarker) {
    static BlobListing parse(byte[] xml, String what) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
            List<StoredBlob> blobs = new ArrayList<>();
            NodeList items = document.getElementsByTagName("Blob");
            for (int i = 0; i < items.getLength(); i++) {
                Element blob = (Element) items.item(i);
                blobs.add(new StoredBlob(text(blob, "Name"), instant(text(blob, "Last-Modified")),
                        Long.parseLong(text(blob, "Content-Length").isEmpty() ? "0" : text(blob, "Content-Length"))));
            }
            return new BlobListing(blobs, text(document.getDocumentElement(), "NextMarker"));
        } catch (ParserConfigurationException | SAXException | IOException | DateTimeParseException
                | NumberFormatException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Azure Storage answered a blob listing that is not "
                    + "one while " + what + ": " + e.getMessage(), e);
        }
    }

    private static String text(Element parent, String tag) {
        NodeList found = parent.getElementsByTagName(tag);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().strip();
    }

    private static Instant instant(String rfc1123) {
        return rfc1123.isEmpty() ? Instant.EPOCH
                : ZonedDateTime.parse(rfc1123, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }
}

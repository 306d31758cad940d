package dev.gantry.backend.cyclecloud.internal.gridengine;

import java.io.IOException;
import java.io.StringReader;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The jobs in {@code qstat -xml -u USER}'s answer, the one status query per poll for all of a user's jobs. Son of
 * Grid Engine 8.1.9 prints a {@code job_info} document with running jobs under {@code queue_info} and pending ones
 * under an inner {@code job_info}, one {@code job_list} element each; an array job has one element per running task
 * and one per range of pending tasks ({@code <tasks>3,4</tasks>}, {@code <tasks>1-10:3</tasks>}). A user with no jobs
 * gets the same document with both sections empty, the one answer that is an empty list. Anything that is not such a
 * document (qstat's own errors, {@code error: commlib error: ...}, are plain text) is refused with a message, never
 * read as "no jobs".
 *
 * <p>The JDK's parser reads it with DOCTYPEs refused and external entities and schemas off: the text crosses an SSH
 * connection from a machine Gantry does not own. qstat 8.1.9 escapes {@code <} in a job name as {@code %lt;}, so such
 * a name does not come back as it was given; Gantry's names are single words without it.
 */
public final class QstatXml {
    /**
     * One {@code job_list} entry: a job, an array task, or a range of pending array tasks.
     *
     * @param jobNumber the job number ({@code JB_job_number})
     * @param name the job's name ({@code JB_name})
     * @param owner the user who owns it ({@code JB_owner})
     * @param stateLetters its state as printed ({@code r}, {@code hqw}, {@code Eqw}); see {@link #state()}
     * @param queueInstance the queue instance running it ({@code all.q@vm}); empty while pending
     * @param slots the slots it holds or asks for
     * @param startTime when it started ({@code JAT_start_time}, running jobs), in the qmaster's local time
     * @param submissionTime when it was submitted ({@code JB_submission_time}, pending jobs), in the same time
     * @param tasks the array tasks this entry covers, as printed; empty for a job that is not an array
     */
    public record Job(String jobNumber, String name, String owner, String stateLetters,
                      Optional<String> queueInstance, int slots, Optional<LocalDateTime> startTime,
                      Optional<LocalDateTime> submissionTime, Optional<String> tasks) {
        /** The state read as letter flags; empty for letters {@link GridEngineState} does not know. */
        public Optional<GridEngineState> state() {
            return GridEngineState.parse(stateLetters);
        }

        /** The host from {@link #queueInstance()} ({@code vm} of {@code all.q@vm}). */
        public Optional<String> host() {
            return queueInstance.filter(q -> q.indexOf('@') > 0).map(q -> q.substring(q.indexOf('@') + 1));
        }
    }

    private QstatXml() {
    }

    /** Every entry, in the order qstat printed them. */
    public static List<Job> parse(String xml) {
        if (xml.isBlank()) {
            throw new IllegalArgumentException("qstat -xml printed nothing; expected a job_info document");
        }
        Element root = document(xml).getDocumentElement();
        if (!root.getTagName().equals("job_info")) {
            throw new IllegalArgumentException("qstat -xml's answer is a <" + root.getTagName()
                    + "> document, not <job_info>");
        }
        NodeList entries = root.getElementsByTagName("job_list");
        List<Job> jobs = new ArrayList<>(entries.getLength());
        for (int i = 0; i < entries.getLength(); i++) {
            jobs.add(job((Element) entries.item(i), i + 1));
        }
        return List.copyOf(jobs);
    }

    /** The entries grouped by job number (an array job's tasks together), in the order first printed. */
    public static Map<String, List<Job>> byJobNumber(List<Job> jobs) {
        Map<String, List<Job>> byNumber = new LinkedHashMap<>();
        for (Job job : jobs) {
            byNumber.computeIfAbsent(job.jobNumber(), n -> new ArrayList<>()).add(job);
        }
        byNumber.replaceAll((number, entries) -> List.copyOf(entries));
        return byNumber;
    }

    private static Job job(Element entry, int index) {
        String number = required(entry, "JB_job_number", index);
        if (!number.matches("[0-9]+")) {
            throw new IllegalArgumentException("qstat -xml job_list " + index + ": JB_job_number '" + number
                    + "' is not a number");
        }
        String slots = required(entry, "slots", index);
        if (!slots.matches("[0-9]+")) {
            throw new IllegalArgumentException("qstat -xml job " + number + ": slots '" + slots
                    + "' is not a number");
        }
        return new Job(number, required(entry, "JB_name", index), required(entry, "JB_owner", index),
                required(entry, "state", index), optional(entry, "queue_name"), Integer.parseInt(slots),
                time(entry, "JAT_start_time", number), time(entry, "JB_submission_time", number),
                optional(entry, "tasks"));
    }

    private static String required(Element entry, String name, int index) {
        return optional(entry, name).orElseThrow(() -> new IllegalArgumentException("qstat -xml job_list " + index
                + " has no <" + name + ">"));
    }

    /** The text of a direct child element; empty when it is absent or empty ({@code <queue_name></queue_name>}). */
    private static Optional<String> optional(Element entry, String name) {
        for (Node child = entry.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getTagName().equals(name)) {
                String text = element.getTextContent().strip();
                return text.isEmpty() ? Optional.empty() : Optional.of(text);
            }
        }
        return Optional.empty();
    }

    private static Optional<LocalDateTime> time(Element entry, String name, String number) {
        return optional(entry, name).map(text -> {
            try {
                return LocalDateTime.parse(text);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("qstat -xml job " + number + ": " + name + " '" + text
                        + "' is not a time like 2026-12-02T01:59:59", e);
            }
        });
    }

    private static Document document(String xml) {
        try {
            DocumentBuilder builder = factory().newDocumentBuilder();
            // The default handler prints "[Fatal Error]" to stderr before throwing; the message goes in ours.
            builder.setErrorHandler(new ErrorHandler() {
                @Override
                public void warning(SAXParseException e) {
                }

                @Override
                public void error(SAXParseException e) throws SAXException {
                    throw e;
                }

                @Override
                public void fatalError(SAXParseException e) throws SAXException {
                    throw e;
                }
            });
            return builder.parse(new InputSource(new StringReader(xml)));
        } catch (SAXException e) {
            throw new IllegalArgumentException("qstat -xml's answer is not a well-formed XML document ("
                    + e.getMessage() + "); it starts '" + xml.strip().lines().findFirst().orElse("") + "'", e);
        } catch (IOException | ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser cannot be set up: " + e.getMessage(), e);
        }
    }

    private static DocumentBuilderFactory factory() throws ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        return factory;
    }
}

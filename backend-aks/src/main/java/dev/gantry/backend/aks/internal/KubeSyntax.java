package dev.gantry.backend.aks.internal;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The API server's rules for names, label values and quantities, so that settings and plans it would refuse are
 * refused here first, with the rule in words.
 */
public final class KubeSyntax {
    /** An RFC 1123 label (namespaces, Services, container names). */
    static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** An RFC 1123 subdomain (most object names: secrets, claims, service accounts). */
    static final Pattern DNS_SUBDOMAIN = Pattern.compile(
            "(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** A label value, also a taint value; may be empty. */
    static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");
    /** A qualified name: label, annotation and taint keys, extended resource names ({@code rdma/ib}). */
    static final Pattern QUALIFIED_NAME = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}"
                    + "[A-Za-z0-9])?");
    /** A resource quantity as the API server parses it: a number with a binary, decimal or exponent suffix. */
    static final Pattern QUANTITY = Pattern.compile(
            "(\\d+(\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?");

    private KubeSyntax() {
    }

    public static boolean isDnsLabel(String value) {
        return DNS_LABEL.matcher(value).matches();
    }

    public static boolean isDnsSubdomain(String value) {
        return DNS_SUBDOMAIN.matcher(value).matches();
    }

    public static boolean isLabelValue(String value) {
        return LABEL_VALUE.matcher(value).matches();
    }

    public static boolean isQualifiedName(String value) {
        return QUALIFIED_NAME.matcher(value).matches();
    }

    public static boolean isQuantity(String value) {
        return QUANTITY.matcher(value).matches();
    }

    /** A quantity above zero: a size, not nothing. */
    public static boolean isPositiveQuantity(String value) {
        java.util.regex.Matcher m = QUANTITY.matcher(value);
        return m.matches() && m.group(1).chars().anyMatch(c -> c >= '1' && c <= '9');
    }

    /**
     * The nearest DNS label to what was written, for the "e.g." of a message: lower case, other characters '-',
     * letters or digits at each end ({@code ML_Jobs} gives {@code ml-jobs}); {@code gantry} when nothing is left.
     */
    public static String suggestLabel(String value) {
        String lower = value.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
        String cut = lower.length() > 63 ? lower.substring(0, 63).replaceAll("-+$", "") : lower;
        return cut.isEmpty() ? "gantry" : cut;
    }
}

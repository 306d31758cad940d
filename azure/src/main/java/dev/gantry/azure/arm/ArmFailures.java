package dev.gantry.azure.arm;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.management.polling.PollResult;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the Azure SDK throws into a {@link GantryException} with a stable code and a message that says the fix.
 * Every caller of Resource Manager (VM provisioning, AKS node pools) reads Azure's errors the same way.
 */
public final class ArmFailures {
    private static final Set<String> AUTH_CODES = Set.of("authenticationfailed", "invalidauthenticationtoken",
            "expiredauthenticationtoken", "invalidauthenticationtokentenant");
    private static final Set<String> CAPACITY_CODES = Set.of("allocationfailed", "zonalallocationfailed",
            "overconstrainedallocationrequest", "overconstrainedzonalallocationrequest");

    private static final Set<String> CONTAINER_MISSING_CODES = Set.of("resourcegroupnotfound",
            "parentresourcenotfound");

    private static final ObjectMapper STATUS_JSON = new ObjectMapper();

    private ArmFailures() {
    }

    /**
     * Where the failure happened, to name in the message, and the role that lets the signed-in identity do it (said
     * when Azure answers 403).
     */
    public record Scope(String action, String vmSize, String region, String role) {
        /** The role VM provisioning needs. */
        static final String VM_ROLES = "the Contributor role (or Virtual Machine Contributor and Network Contributor)"
                + " on the resource group";

        /** A scope of VM provisioning. */
        public Scope(String action, String vmSize, String region) {
            this(action, vmSize, region, VM_ROLES);
        }
    }

    public static boolean isNotFound(Throwable e) {
        return status(e) == 404;
    }

    /**
     * A 404 for the resource itself: not for the resource group or the parent resource (an AKS cluster of a node
     * pool) it would be in, which are errors to report, not an empty answer.
     */
    public static boolean isResourceNotFound(Throwable e) {
        ManagementException management = find(e, ManagementException.class);
        String code = management == null || management.getValue() == null || management.getValue().getCode() == null
                ? "" : management.getValue().getCode().toLowerCase(Locale.ROOT);
        return isNotFound(e) && !CONTAINER_MISSING_CODES.contains(code);
    }

    /** A 412: a conditional request ({@code If-None-Match: *}) found the resource already there. */
    public static boolean isPreconditionFailed(Throwable e) {
        return status(e) == 412;
    }

    private static int status(Throwable e) {
        ManagementException management = find(e, ManagementException.class);
        return management == null || management.getResponse() == null ? 0 : management.getResponse().getStatusCode();
    }

    /**
     * The exception for a long-running operation that ended {@code Failed} or {@code Canceled}, with the ARM error of
     * its status body ({@code {"status":"Failed","error":{"code":...,"message":...}}}).
     */
    public static ManagementException operationFailed(String status, PollResult.Error error) {
        String code = "Operation" + status;
        String message = "the operation ended " + status;
        if (error != null) {
            message = error.getMessage() == null ? message : error.getMessage();
            try {
                JsonNode body = error.getResponseBody() == null ? null : STATUS_JSON.readTree(error.getResponseBody());
                JsonNode detail = body == null ? null : body.path("error");
                if (detail != null && detail.hasNonNull("code")) {
                    code = detail.path("code").asText();
                    message = detail.path("message").asText(message);
                }
            } catch (JsonProcessingException e) {
                // Not JSON: keep the poller's own message.
            }
        }
        return new ManagementException(message, null, new ManagementError(code, message));
    }

    public static GantryException translate(Scope scope, RuntimeException e) {
        if (e instanceof GantryException gantry) {
            return gantry;
        }
        ClientAuthenticationException auth = find(e, ClientAuthenticationException.class);
        if (auth != null) {
            return new GantryException(ErrorCode.AUTH_FAILED, "could not authenticate to Azure while " + scope.action()
                    + ": " + firstLine(auth.getMessage()) + ". " + credentialHint(), e);
        }
        ManagementException management = find(e, ManagementException.class);
        if (management == null) {
            return new GantryException(ErrorCode.REMOTE_ERROR, "Azure Resource Manager could not be reached while "
                    + scope.action() + ": " + firstLine(String.valueOf(e.getMessage()))
                    + ". Check the network connection and retry.", e);
        }
        int status = management.getResponse() == null ? 0 : management.getResponse().getStatusCode();
        ManagementError error = management.getValue();
        String code = error == null || error.getCode() == null ? "" : error.getCode();
        String message = error == null || error.getMessage() == null ? firstLine(management.getMessage())
                : error.getMessage();
        String lower = code.toLowerCase(Locale.ROOT);
        if (status == 401 || AUTH_CODES.contains(lower)) {
            return new GantryException(ErrorCode.AUTH_FAILED, "Azure refused the credentials while " + scope.action()
                    + " (" + code + "): " + message + ". " + credentialHint(), e);
        }
        if (status == 403 || lower.equals("authorizationfailed")) {
            return new GantryException(ErrorCode.AUTH_FAILED, "the signed-in identity may not do this while "
                    + scope.action() + " (" + code + "): " + message + ". Grant it " + scope.role() + ".", e);
        }
        Optional<QuotaShortfall> quota = QuotaShortfall.parse(code, message);
        if (quota.isPresent()) {
            return new GantryException(ErrorCode.QUOTA_EXCEEDED, quota.get().describe(scope) + " Azure said: "
                    + message, e);
        }
        // PLAN_REJECTED, not REMOTE_ERROR: the size is not offered to this subscription in this region, so the same
        // plan can never succeed there; the fix is another plan (and a catalog that knows the restriction).
        if (lower.equals("skunotavailable")) {
            return new GantryException(ErrorCode.PLAN_REJECTED, "VM size " + scope.vmSize() + " is not available to "
                    + "this subscription in region " + scope.region() + " (SkuNotAvailable). Run gantry catalog refresh "
                    + "so that plans skip restricted sizes, then plan again with another region or size. Azure said: "
                    + message, e);
        }
        if (CAPACITY_CODES.contains(lower)) {
            return new GantryException(ErrorCode.REMOTE_ERROR, "Azure has no capacity for " + scope.vmSize() + " in "
                    + scope.region() + " right now (" + code + "). Retry later, or plan another region or size. "
                    + "Azure said: " + message, e);
        }
        return new GantryException(ErrorCode.REMOTE_ERROR, "Azure answered " + status + " " + code + " while "
                + scope.action() + ": " + message, e);
    }

    private static String credentialHint() {
        return "Gantry uses the DefaultAzureCredential chain: sign in with az login, or set AZURE_TENANT_ID, "
                + "AZURE_CLIENT_ID and AZURE_CLIENT_SECRET (or a federated token), or run with a managed identity.";
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    /**
     * A quota refusal, read from Azure's message ("... exceeding approved standardNDSH100v5Family Cores quota ...
     * Location: eastus, Current Limit: 0, Current Usage: 0, Additional Required: 96, ...").
     */
    record QuotaShortfall(String family, Optional<String> location, OptionalInt limit, OptionalInt usage,
            OptionalInt required) {
        private static final Pattern FAMILY = Pattern.compile("exceeding approved (.+?) (?:Cores )?quota",
                Pattern.CASE_INSENSITIVE);
        private static final Pattern LOCATION = Pattern.compile("Location: ([A-Za-z0-9]+)");
        private static final Pattern LIMIT = Pattern.compile("Current Limit: (\\d+)");
        private static final Pattern USAGE = Pattern.compile("Current Usage: (\\d+)");
        private static final Pattern REQUIRED = Pattern.compile("Additional Required: (\\d+)");

        static Optional<QuotaShortfall> parse(String code, String message) {
            String lower = code.toLowerCase(Locale.ROOT);
            boolean quotaCode = lower.equals("quotaexceeded") || lower.equals("operationnotallowed");
            if (!quotaCode || !message.toLowerCase(Locale.ROOT).contains("quota")) {
                return Optional.empty();
            }
            Matcher family = FAMILY.matcher(message);
            return Optional.of(new QuotaShortfall(family.find() ? family.group(1) : "regional vCPU",
                    group(LOCATION, message), number(LIMIT, message), number(USAGE, message),
                    number(REQUIRED, message)));
        }

        String describe(Scope scope) {
            String region = location.orElse(scope.region());
            StringBuilder text = new StringBuilder("Quota exceeded while ").append(scope.action()).append(": ")
                    .append(scope.vmSize()).append(" in ").append(region).append(" needs");
            required.ifPresent(n -> text.append(' ').append(n).append(" more"));
            text.append(" vCPUs of the ").append(family).append(" quota");
            if (limit.isPresent()) {
                text.append(", whose limit is ").append(limit.getAsInt());
                usage.ifPresent(n -> text.append(" with ").append(n).append(" in use"));
            }
            text.append(". Request a quota increase for ").append(family).append(" in ").append(region);
            if (usage.isPresent() && required.isPresent()) {
                text.append(" to at least ").append(usage.getAsInt() + required.getAsInt()).append(" vCPUs");
            }
            text.append(" (Azure portal: Quotas > Compute), or plan another region or VM size.");
            return text.toString();
        }

        private static Optional<String> group(Pattern pattern, String text) {
            Matcher matcher = pattern.matcher(text);
            return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
        }

        private static OptionalInt number(Pattern pattern, String text) {
            Matcher matcher = pattern.matcher(text);
            return matcher.find() ? OptionalInt.of(Integer.parseInt(matcher.group(1))) : OptionalInt.empty();
        }
    }
}

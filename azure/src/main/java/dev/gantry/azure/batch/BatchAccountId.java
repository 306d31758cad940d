package dev.gantry.azure.batch;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Batch account's Resource Manager id,
 * {@code /subscriptions/SUB/resourceGroups/GROUP/providers/Microsoft.Batch/batchAccounts/NAME}.
 */
public record BatchAccountId(String subscriptionId, String resourceGroup, String accountName) {
    private static final Pattern ID = Pattern.compile("/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers/"
            + "Microsoft\\.Batch/batchAccounts/([^/]+)/?", Pattern.CASE_INSENSITIVE);

    public BatchAccountId {
        Objects.requireNonNull(subscriptionId, "subscriptionId");
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(accountName, "accountName");
    }

    /** The id, checked; an {@link IllegalArgumentException} shows the form and where to find it. */
    public static BatchAccountId parse(String resourceId) {
        Matcher matcher = ID.matcher(resourceId == null ? "" : resourceId.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + resourceId + "' is not a Batch account's resource id; it reads "
                    + "/subscriptions/SUBSCRIPTION/resourceGroups/GROUP/providers/Microsoft.Batch/batchAccounts/NAME "
                    + "(az batch account show --name NAME --resource-group GROUP --query id)");
        }
        return new BatchAccountId(matcher.group(1), matcher.group(2), matcher.group(3));
    }

    /** The id as Resource Manager's paths spell it. */
    public String path() {
        return "/subscriptions/" + subscriptionId + "/resourceGroups/" + resourceGroup
                + "/providers/Microsoft.Batch/batchAccounts/" + accountName;
    }

    @Override
    public String toString() {
        return path();
    }
}

package dev.gantry.backend.batch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.backend.batch.BatchBackendProvider;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatchSettingsTest {
    private static final String IDENTITY = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/"
            + "providers/Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools";
    private static final String ACCOUNT_ID = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/"
            + "providers/Microsoft.Batch/batchAccounts/mlbatch";

    private static Map<String, String> minimal() {
        Map<String, String> values = new HashMap<>();
        values.put("accounts[0].url", "https://mlbatch.eastus.batch.azure.com");
        values.put("accounts[0].region", "eastus");
        return values;
    }

    private static List<String> problems(Map<String, String> values) {
        return problems(new BackendConfig("batch", values));
    }

    private static List<String> problems(BackendConfig config) {
        GantryException e = assertThrows(GantryException.class, () -> BatchSettings.bind(config));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        return e.problems().stream().map(Problem::toString).toList();
    }

    @Test
    void aMinimalAccountTakesTheDefaults() {
        BatchSettings settings = BatchSettings.bind(new BackendConfig("batch", minimal()));
        BatchAccountSettings account = settings.accounts().get(0);
        assertEquals(URI.create("https://mlbatch.eastus.batch.azure.com"), account.url());
        assertEquals(BatchAuth.ENTRA, account.auth(), "no key: Entra ID");
        assertEquals("mlbatch", account.name());
        assertEquals(Optional.empty(), account.key());
        assertEquals("gantry-", settings.poolPrefix());
        assertEquals(10, settings.maxNodesPerPool());
        assertEquals(Duration.ofHours(1), settings.idlePoolTimeout());
        assertEquals(Duration.ofDays(7), settings.taskRetention());
        assertEquals(Optional.of(account), settings.account("eastus"));
        assertEquals(Optional.empty(), settings.account("westus2"));
    }

    @Test
    void everyKeyBinds() {
        Map<String, String> values = minimal();
        values.put("accounts[0].auth", "entra");
        values.put("accounts[0].resourceId", ACCOUNT_ID);
        values.put("accounts[1].url", "http://127.0.0.1:18443");
        values.put("accounts[1].region", "westus2");
        values.put("accounts[1].key", "env:BATCH_KEY");
        values.put("poolPrefix", "ml_");
        values.put("pools[0].vmSize", "Standard_NC24ads_A100_v4");
        values.put("pools[0].id", "shared-a100");
        values.put("maxNodesPerPool", "32");
        values.put("poolIdentity", IDENTITY);
        values.put("secrets.containerUrl", "https://mlsecrets.blob.core.windows.net/gantry-secrets/");
        values.put("idlePoolTimeout", "30m");
        values.put("taskRetention", "2d");
        BatchSettings settings = BatchSettings.bind(new BackendConfig("batch", values));
        BatchAccountSettings local = settings.account("westus2").orElseThrow();
        assertEquals(BatchAuth.SHARED_KEY, local.auth(), "a key without auth: shared key");
        assertEquals(Optional.of(SecretRef.parse("env:BATCH_KEY")), local.key());
        assertEquals("westus2", local.name(), "a loopback endpoint names no account: the region does");
        assertEquals(Optional.of(ACCOUNT_ID), settings.account("eastus").orElseThrow().resourceId());
        assertEquals("ml_", settings.poolPrefix());
        assertEquals(Optional.of(new ExistingPool("Standard_NC24ads_A100_v4", "shared-a100")),
                settings.existingPool("standard_nc24ads_a100_v4"));
        assertEquals(32, settings.maxNodesPerPool());
        assertEquals(Optional.of(IDENTITY), settings.poolIdentity());
        assertEquals(Optional.of(URI.create("https://mlsecrets.blob.core.windows.net/gantry-secrets")),
                settings.secretsContainer());
        assertEquals(Duration.ofMinutes(30), settings.idlePoolTimeout());
        assertEquals(Duration.ofDays(2), settings.taskRetention());
    }

    @Test
    void everyProblemIsReportedAtOnceWhereItWasWritten() {
        Map<String, String> values = minimal();
        values.put("accounts[0].auth", "entra");
        values.put("accounts[0].key", "env:BATCH_KEY");
        values.put("accounts[1].url", "http://mlbatch2.westus2.batch.azure.com");
        values.put("accounts[1].region", "eastus");
        values.put("accounts[1].auth", "sharedKey");
        values.put("accounts[2].url", "https://mlbatch3.westus3.batch.azure.com/jobs?x=1");
        values.put("accounts[2].region", "West US 3");
        values.put("accounts[2].auth", "password");
        values.put("accounts[2].resourceId", "mlbatch3");
        values.put("secrets.containerUrl", "https://mlsecrets.blob.core.windows.net/gantry-secrets");
        values.put("maxNodesPerPol", "4");
        values.put("poolPrefix", "gantry.pools.");
        values.put("pools[0].id", "shared a100");
        values.put("taskRetention", "0d");
        values.put("idlePoolTimeout", "an hour");
        Map<String, SourceLocation> where = new HashMap<>();
        where.put("accounts[0].key", new SourceLocation("gantry.yaml", 6, 12));
        where.put("maxNodesPerPol", new SourceLocation("gantry.yaml", 20, 5));
        List<String> problems = problems(new BackendConfig("batch", values, where));
        assertEquals(List.of(
                "gantry.yaml:20:5: backends.batch.maxNodesPerPol: unknown setting; did you mean 'maxNodesPerPool'?",
                "gantry.yaml:6:12: backends.batch.accounts[0].key: is set while accounts[0].auth is entra: a key is "
                        + "only for auth: sharedKey; remove accounts[0].key or set accounts[0].auth: sharedKey",
                "backends.batch.accounts[1].url: 'http://mlbatch2.westus2.batch.azure.com' is plain http to a host "
                        + "that is not this machine: the key or token would cross the network in clear; use "
                        + "https://mlbatch2.westus2.batch.azure.com (http:// is accepted only for a loopback test "
                        + "service such as http://127.0.0.1:PORT)",
                "backends.batch.accounts[1].key: is required with accounts[1].auth: sharedKey: a secret reference to "
                        + "the account's key (env:NAME, file:PATH or a Key Vault secret); or set accounts[1].auth: "
                        + "entra",
                "backends.batch.accounts[1].region: 'eastus' is also the region of accounts[0].region; each region "
                        + "has one account (plans go to the account of their region): remove one of them",
                "backends.batch.accounts[2].url: 'https://mlbatch3.westus3.batch.azure.com/jobs?x=1' has more than a "
                        + "scheme and a host (a path, query, user or fragment); give the endpoint alone, e.g. "
                        + "https://mlbatch3.westus3.batch.azure.com",
                "backends.batch.accounts[2].region: 'West US 3' is not an Azure region name: lower-case letters and "
                        + "digits, e.g. eastus or westus2",
                "backends.batch.accounts[2].auth: must be one of sharedKey, entra, got 'password'",
                "backends.batch.accounts[2].resourceId: 'mlbatch3' is not a Batch account's Resource Manager id; "
                        + "give /subscriptions/SUBSCRIPTION-ID/resourceGroups/GROUP/providers/Microsoft.Batch/"
                        + "batchAccounts/ACCOUNT (the portal's account Properties show it)",
                "backends.batch.poolPrefix: 'gantry.pools.' is not a pool id prefix: 1 to 24 letters, digits, '-' or "
                        + "'_' (Batch's id alphabet, leaving room for the rest of the id); e.g. gantry-",
                "backends.batch.pools[0].vmSize: is required: the VM size whose plans use this pool, e.g. "
                        + "Standard_NC24ads_A100_v4",
                "backends.batch.pools[0].id: 'shared a100' is not a Batch pool id: 1 to 64 letters, digits, '-' or "
                        + "'_'",
                "backends.batch.secrets.containerUrl: is set but poolIdentity is not: tasks fetch their secrets from "
                        + "the container with the pools' identity; set poolIdentity to a user-assigned identity with "
                        + "Storage Blob Data Reader on it, or remove secrets.containerUrl",
                "backends.batch.idlePoolTimeout: must be a duration such as 30s, 5m or 2h, got 'an hour'",
                "backends.batch.taskRetention: must be above 0, got '0d'; the default is 7d"), problems);
    }

    @Test
    void accountUrlsAreHttpsOrLoopbackHttp() {
        assertEquals(Optional.empty(), BatchAccountSettings.urlProblem("https://mlbatch.eastus.batch.azure.com"));
        assertEquals(Optional.empty(), BatchAccountSettings.urlProblem("https://mlbatch.eastus.batch.azure.com/"));
        for (String loopback : List.of("http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080",
                "http://127.3.2.1")) {
            assertEquals(Optional.empty(), BatchAccountSettings.urlProblem(loopback), loopback);
        }
        for (String bad : List.of("http://10.0.0.4:8080", "http://localhost.example.com", "ftp://mlbatch",
                "mlbatch.eastus.batch.azure.com", "https://user@mlbatch.eastus.batch.azure.com", "https://a b")) {
            String problem = BatchAccountSettings.urlProblem(bad).orElseThrow(() -> new AssertionError(bad));
            assertTrue(problem.startsWith("'" + bad + "'"), "names the value: " + problem);
            assertTrue(problem.contains("https://"), "says the fix: " + problem);
        }
    }

    @Test
    void aKeyThatIsNotAReferenceIsNeverRepeated() {
        Map<String, String> values = minimal();
        values.put("accounts[0].key", "c2VjcmV0LWtleS1ub3QtYS1yZWFs==");
        List<String> problems = problems(values);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("backends.batch.accounts[0].key: is not a secret reference"),
                problems.get(0));
        assertFalse(problems.get(0).contains("c2VjcmV0"), "the value may be the key itself");
    }

    @Test
    void noAccountIsAProblemNamingTheKey() {
        assertEquals(List.of("backends.batch.accounts: is required: at least one Batch account, e.g. accounts: "
                + "[{url: https://ACCOUNT.REGION.batch.azure.com, region: REGION, auth: entra}]"), problems(Map.of()));
    }

    @Test
    void theProviderDeclaresTheKeysWithTheSharedKeyAsASecret() {
        assertEquals(BatchSettings.KEYS, new BatchBackendProvider().configKeys());
        ConfigKey key = BatchSettings.KEYS.stream().filter(k -> k.name().equals("accounts[*].key")).findFirst()
                .orElseThrow();
        assertTrue(key.secret());
        List<String> names = BatchSettings.KEYS.stream().map(ConfigKey::name).toList();
        assertEquals(List.of("accounts[*].url", "accounts[*].region", "accounts[*].auth", "accounts[*].key",
                "accounts[*].resourceId", "poolPrefix", "pools[*].vmSize", "pools[*].id", "maxNodesPerPool",
                "poolIdentity", "secrets.containerUrl", "idlePoolTimeout", "taskRetention"), names);
    }
}

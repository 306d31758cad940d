package dev.gantry.cli;

import dev.gantry.Gantry;
import picocli.CommandLine.Option;

/**
 * The subscription a command's plans keep to: AZURE_SUBSCRIPTION_ID, unless {@code --no-quota}. Shared by the
 * commands that plan (plan, run, and those that drive a run, whose engine re-plans moved attempts), so that each plans
 * as {@code gantry plan} shows.
 */
final class QuotaOption {
    static final String SUBSCRIPTION_VARIABLE = "AZURE_SUBSCRIPTION_ID";

    @Option(names = "--no-quota", description = "Do not check the subscription's sizes, zones and vCPU quota even "
            + "when AZURE_SUBSCRIPTION_ID is set.")
    boolean noQuota;

    /**
     * With a subscription to ask, has every plan of {@code gantry} keep to the sizes, zones and vCPU quota it allows,
     * sharing what was read of each region; when Azure cannot be read (no sign-in, no role, the Azure module
     * missing), each plan is made as before and a warning says why.
     */
    void planWithinSubscription(Gantry gantry, CliEnvironment env) {
        String subscription = env.environment().get(SUBSCRIPTION_VARIABLE);
        if (noQuota || subscription == null || subscription.isBlank()) {
            return;
        }
        planWithin(gantry, env, subscription);
    }

    /**
     * Has every plan of {@code gantry} keep to what {@code subscription} allows (its sizes, zones and vCPU quota),
     * warning on standard error when Azure cannot be read for a plan, which is then made as before.
     */
    static void planWithin(Gantry gantry, CliEnvironment env, String subscription) {
        gantry.planWithin(subscription, env::azure, (name, why) -> {
            env.err().println("gantry: warning: " + name + ": quota and zones not checked: " + why);
            env.err().flush();
        });
    }
}

package dev.gantry.backend.batch.internal.validate;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.azure.batch.BatchVmSku;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.ExistingPool;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code validate(plan)} for Batch: what would stop the plan from running, found before anything is created, each
 * with its fix. It reads only cheap things: the account's facts (one Resource Manager GET), the supported images
 * (cached for a day), the VM sizes Batch offers in the region and the quotas, and, for an existing pool, whether it
 * carries an identity. What cannot be checked is said as a warning, never passed in silence.
 */
public final class PlanCheck {
    static final String ACCOUNTS = "backends.batch." + BatchAccountSettings.ACCOUNTS;
    static final String RESOURCE_ID = ACCOUNTS + "[*]." + BatchAccountSettings.RESOURCE_ID;
    /** Batch ends any task this long after it was added (its maxWallClockTime cannot be longer). */
    static final int TASK_LIFETIME_DAYS = 180;

    /**
     * What validate found: problems stop the plan; warnings are for the user to know and do not. The SPI's
     * {@code validate} returns problems only.
     */
    public record Findings(List<Problem> problems, List<Problem> warnings) {
        public Findings {
            problems = List.copyOf(problems);
            warnings = List.copyOf(warnings);
        }
    }

    /** What validate reads of one account; {@link AccountReads} reads the real one, each read made once. */
    public interface Account {
        AccountFacts facts();

        List<SupportedImage> supportedImages();

        /** Whether the existing pool carries a user-assigned identity (one GET of the pool). */
        boolean poolHasIdentity(String poolId);

        /** The VM sizes Batch offers in the account's region; called only with {@code resourceId} set. */
        List<BatchVmSku> vmSkus();

        /** The subscription's Compute usages in the region, by lower-case name; user-subscription accounts only. */
        Map<String, ComputeUsage> usages();
    }

    private final BatchSettings settings;
    private final Function<BatchAccountSettings, Account> accounts;
    private final Clock clock;

    public PlanCheck(BatchSettings settings, Function<BatchAccountSettings, Account> accounts, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.accounts = Objects.requireNonNull(accounts, "accounts");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Findings check(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        Optional<BatchAccountSettings> configured = settings.account(plan.region());
        if (configured.isEmpty()) {
            problems.add(Problem.of(ACCOUNTS, "no Batch account runs plans of region '" + plan.region() + "' "
                    + "(accounts are configured for " + settings.accounts().stream().map(BatchAccountSettings::region)
                    .toList() + "); add an account with region: " + plan.region() + ", or plan for one of those "
                    + "regions"));
            return new Findings(problems, warnings);
        }
        Account account = accounts.apply(configured.get());
        AccountFacts facts = account.facts();
        checkImage(plan, account, problems, warnings);
        if (plan.spot()) {
            facts.whyNoSpot().ifPresent(why -> problems.add(Problem.of("spot", "the plan is on Spot but " + why)));
        }
        checkSecrets(plan, account, problems);
        if (facts.settings().resourceId().isPresent()) {
            checkSizeAndQuota(plan, account, problems);
        } else {
            warnings.add(Problem.of(RESOURCE_ID, "is not set for account " + configured.get().url().getHost()
                    + ", so whether Batch offers " + plan.vmSize().name() + " in " + plan.region() + " and whether "
                    + "the core quota holds " + plan.vmSize().vcpus() * plan.nodes() + " cores were not checked; set it to "
                    + "the account's Resource Manager id to have them checked before anything is created"));
        }
        if (plan.workload().phase() == Phase.INFERENCE && plan.workload().estimate().isEmpty()) {
            warnings.add(Problem.of("phase", "an inference workload with no runtime estimate may serve for ever, but "
                    + "Batch ends any task " + TASK_LIFETIME_DAYS + " days after it was added; run a long-lived "
                    + "service on the aks backend, or resubmit it before then"));
        }
        return new Findings(problems, warnings);
    }

    private void checkImage(Plan plan, Account account, List<Problem> problems, List<Problem> warnings) {
        ImageRef image = plan.image();
        if (image.kind() == ImageRef.Kind.HOST) {
            problems.add(Problem.of("image", "the plan has no VM image (it runs on the host's own system), but a "
                    + "Batch pool needs a marketplace or gallery image; plan with an image from the image catalog"));
            return;
        }
        Optional<String> agent = plan.boot().batchNodeAgentSku();
        if (agent.isEmpty()) {
            problems.add(Problem.of("image", "image " + image.id() + " names no Batch node agent SKU; plan with an "
                    + "image of the catalog that has one (gantry images)"));
            return;
        }
        if (image.kind() == ImageRef.Kind.GALLERY) {
            warnings.add(Problem.of("image", "gallery image " + image.id() + " is not in Batch's supported-images "
                    + "list, so its node agent SKU " + agent.get() + ", Docker and GPU driver were not checked; Batch "
                    + "checks them when the pool is created"));
            return;
        }
        String[] urn = image.id().split(":", -1);
        if (urn.length != 4) {
            problems.add(Problem.of("image", "marketplace image '" + image.id() + "' is not a URN "
                    + "publisher:offer:sku:version"));
            return;
        }
        List<SupportedImage> listed = account.supportedImages().stream()
                .filter(candidate -> candidate.isImage(urn[0], urn[1], urn[2])).toList();
        Optional<SupportedImage> supported = listed.stream()
                .filter(candidate -> candidate.nodeAgentSku().equalsIgnoreCase(agent.get())).findFirst();
        if (supported.isEmpty()) {
            problems.add(Problem.of("image", "Batch does not support image " + image.id() + " with node agent SKU '"
                    + agent.get() + "' in this account (supportedimages); " + (listed.isEmpty()
                    ? "choose an image Batch lists (az batch pool supported-images list)"
                    : "it supports that image with " + listed.stream().map(SupportedImage::nodeAgentSku).toList())));
            return;
        }
        checkCapabilities(plan, supported.get(), problems, warnings);
    }

    private void checkCapabilities(Plan plan, SupportedImage image, List<Problem> problems, List<Problem> warnings) {
        Instant now = clock.instant();
        image.endOfLife().filter(end -> !end.isAfter(now)).ifPresent(end -> warnings.add(Problem.of("image",
                "Batch's support for image " + image.urn() + " with " + image.nodeAgentSku() + " ended on " + end
                        + " (batchSupportEndOfLife): pools may still be made, but Batch no longer fixes them; plan "
                        + "with a newer image")));
        if (plan.workload().container().isPresent()
                && !image.capabilities().contains(SupportedImage.DOCKER_COMPATIBLE)) {
            problems.add(Problem.of("container", "the workload runs a container but image " + image.urn() + " lacks "
                    + "Batch's " + SupportedImage.DOCKER_COMPATIBLE + " capability, so its pool cannot run "
                    + "containers; plan with an image that has it (e.g. microsoft-dsvm:ubuntu-hpc)"));
        }
        boolean nvidia = plan.vmSize().gpu().filter(gpu -> gpu.vendor() == GpuVendor.NVIDIA).isPresent();
        if (nvidia && !image.capabilities().contains(SupportedImage.NVIDIA_DRIVER)) {
            problems.add(Problem.of("resources.gpus", plan.vmSize().name() + " has NVIDIA GPUs but image "
                    + image.urn() + " lacks Batch's " + SupportedImage.NVIDIA_DRIVER + " capability, so no "
                    + "driver reaches the GPUs; plan with an image that has it (e.g. microsoft-dsvm:ubuntu-hpc)"));
        }
    }

    private void checkSecrets(Plan plan, Account account, List<Problem> problems) {
        Optional<ExistingPool> existing = settings.existingPool(plan.vmSize().name());
        boolean identity = existing.map(pool -> account.poolHasIdentity(pool.id()))
                .orElse(settings.poolIdentity().isPresent());
        if (!plan.workload().secrets().isEmpty() && (settings.secretsContainer().isEmpty() || !identity)) {
            String where = existing.map(pool -> "existing pool " + pool.id() + (identity ? "" : ", which has no "
                    + "user-assigned identity,")).orElse("the pools Gantry creates");
            problems.add(Problem.of("secrets", "the workload has secrets " + plan.workload().secrets().keySet()
                    + ", which reach a task through the secrets container, read with the pool's identity, but "
                    + where + " cannot read them; set backends.batch." + BatchSettings.POOL_IDENTITY + " and "
                    + "backends.batch." + BatchSettings.SECRETS_CONTAINER_URL + " (or list an existing pool with an "
                    + "identity under backends.batch." + BatchSettings.POOLS + "), or remove the secrets"));
        }
        if (existing.isEmpty() && settings.poolIdentity().isPresent()
                && account.facts().settings().resourceId().isEmpty()) {
            problems.add(Problem.of(RESOURCE_ID, "is not set, but pools with an identity (backends.batch."
                    + BatchSettings.POOL_IDENTITY + ") are created through Resource Manager, which needs the "
                    + "account's Resource Manager id; set it, or remove " + BatchSettings.POOL_IDENTITY));
        }
    }

    private void checkSizeAndQuota(Plan plan, Account account, List<Problem> problems) {
        String size = plan.vmSize().name();
        Optional<BatchVmSku> sku = account.vmSkus().stream().filter(s -> s.name().equalsIgnoreCase(size)).findFirst();
        if (sku.isEmpty()) {
            problems.add(Problem.of("vmSize", size + " is not offered to Batch in " + plan.region()
                    + " (Microsoft.Batch/locations/" + plan.region() + "/virtualMachineSkus); plan with another size "
                    + "or region"));
            return;
        }
        if (plan.spot() && !sku.get().lowPriorityCapable()) {
            problems.add(Problem.of("spot", size + " has no Spot (low-priority) capacity for Batch in "
                    + plan.region() + "; plan it without Spot or with another size"));
        }
        if (settings.existingPool(size).isEmpty()) {
            QuotaCheck.problems(plan, sku.get(), account, cores(plan, sku.get())).forEach(problems::add);
        }
    }

    /** The cores a plan's nodes take: Batch's count of the size's vCPUs where known, else the catalog's. */
    static int cores(Plan plan, BatchVmSku sku) {
        return sku.vCpus().orElse(plan.vmSize().vcpus()) * plan.nodes();
    }

    static String lower(String value) {
        return value.toLowerCase(Locale.ROOT);
    }
}

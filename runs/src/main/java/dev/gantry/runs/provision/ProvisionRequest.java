package dev.gantry.runs.provision;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Problem;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What {@code gantry vm up} asks Azure for: {@code count} Linux VMs of one size and image in one resource group and
 * region, reachable over SSH with the user's public key, booted with a cloud-init script. Invalid requests fail with
 * {@link ErrorCode#CONFIG_INVALID} listing every problem.
 *
 * @param subscriptionId the Azure subscription (a GUID)
 * @param resourceGroup created in {@code region} when absent
 * @param region Azure region name, e.g. {@code eastus}
 * @param vmSize VM size name, e.g. {@code Standard_ND96isr_H100_v5}
 * @param image a marketplace URN ({@code publisher:offer:sku:version}) or an Azure Compute Gallery image ID
 * @param count how many VMs, 1 to {@value #MAX_COUNT}
 * @param spot spot priority with its eviction policy and price cap; empty for on-demand
 * @param adminUser the Linux admin account the SSH key is installed for
 * @param sshPublicKey the OpenSSH public key text ({@code ssh-ed25519 AAAA... comment}); password login stays off
 * @param cloudInit the cloud-init boot script, sent as the VM's custom data (base64-encoded on the way)
 * @param publicIp whether each VM gets a static public IP; off by default, the VMs are then private
 * @param sshSource who may reach port 22 through the public IP: a CIDR, an address or a service tag such as
 *     {@code Internet}; only used with {@code publicIp}
 * @param namePrefix VMs are named {@code <prefix>-1 .. <prefix>-<count>}; re-running with the same prefix reuses them
 * @param network the virtual network and subnet the VMs join
 * @param tags extra tags (plan and workload labels); {@value #MANAGED_TAG}{@code =true} is always added
 * @param zone the availability zone every VM is placed in ({@code 1}, {@code 2} or {@code 3}); empty: regional VMs,
 *     which Azure places where it has capacity
 * @param sharedFabric whether the VMs must share one InfiniBand fabric: they are then created with accelerated
 *     networking in one availability set, or, with a zone, as the instances of one zonal scale set limited to a single
 *     placement group ({@link #fabric()}, {@link FabricPlacement})
 */
public record ProvisionRequest(
        String subscriptionId,
        String resourceGroup,
        String region,
        String vmSize,
        ImageRef image,
        int count,
        Optional<Spot> spot,
        String adminUser,
        String sshPublicKey,
        String cloudInit,
        boolean publicIp,
        String sshSource,
        String namePrefix,
        Network network,
        Map<String, String> tags,
        Optional<String> zone,
        boolean sharedFabric) {

    /** The tag that marks resources Gantry created and may therefore reuse or delete. */
    public static final String MANAGED_TAG = "gantry:managed";
    /**
     * The most VMs one request makes. An availability set holds up to 200 ("Set up InfiniBand": "the maximum limit
     * is at 200 VMs per Availability Set"), and a scale set limited to a single placement group up to
     * {@value #PLACEMENT_GROUP_VMS}, so every count a request accepts fits the fabric of an RDMA plan; a set that
     * already holds other VMs may still be full, which Azure refuses and {@link VmProvisioner} reports.
     */
    public static final int MAX_COUNT = 100;
    /**
     * The most instances of a scale set limited to a single placement group. Compute REST contract,
     * {@code VirtualMachineScaleSetProperties.singlePlacementGroup}: "When true this limits the scale set to a single
     * placement group, of max size 100 virtual machines."
     */
    public static final int PLACEMENT_GROUP_VMS = 100;
    /** Azure's limit on custom data: 64 KiB before base64. */
    static final int MAX_CUSTOM_DATA_BYTES = 65_535;

    private static final Pattern SUBSCRIPTION =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern RESOURCE_GROUP = Pattern.compile("[-\\w._()]{1,90}");
    private static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]{1,39}");
    private static final Pattern VM_SIZE = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{1,63}");
    private static final Pattern NAME_PREFIX = Pattern.compile("[a-z][a-z0-9-]*[a-z0-9]|[a-z]");
    private static final Pattern ADMIN_USER = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");
    private static final Pattern NETWORK_NAME = Pattern.compile("[A-Za-z0-9][-\\w.]{0,62}[\\w]|[A-Za-z0-9]");
    private static final Pattern SSH_KEY =
            Pattern.compile("(ssh-rsa|ssh-ed25519|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/]+={0,3}( [^\\r\\n]*)?");
    /** Azure's logical availability zones in a region. */
    private static final Pattern ZONE = Pattern.compile("[123]");
    private static final Pattern SSH_SOURCE =
            Pattern.compile("\\*|[A-Za-z][A-Za-z0-9.]*|\\d{1,3}(\\.\\d{1,3}){3}(/\\d{1,2})?");
    /** Names Azure refuses as a Linux admin user. */
    private static final Set<String> RESERVED_USERS = Set.of("root", "admin", "administrator", "adm", "user", "guest",
            "test", "sys", "backup", "console", "owner", "server", "sql", "support");
    /** The longest VM name Azure accepts for Linux, less the {@code -NNN} suffix. */
    private static final int MAX_PREFIX = 60;

    /** Spot capacity: Azure may evict the VM when it needs the capacity back or the price rises above the cap. */
    public record Spot(EvictionPolicy evictionPolicy, BigDecimal maxPricePerHour) {
        /** The price cap meaning "never evict for price; pay up to the on-demand price". */
        public static final BigDecimal UP_TO_ON_DEMAND = BigDecimal.ONE.negate();

        public Spot {
            Objects.requireNonNull(evictionPolicy, "evictionPolicy");
            Objects.requireNonNull(maxPricePerHour, "maxPricePerHour");
        }

        public static Spot upToOnDemand(EvictionPolicy evictionPolicy) {
            return new Spot(evictionPolicy, UP_TO_ON_DEMAND);
        }
    }

    /** What Azure does with an evicted spot VM. */
    public enum EvictionPolicy {
        /** Stop and deallocate: disks stay (and bill); the VM can be started again. */
        DEALLOCATE,
        /** Delete the VM and its disks. */
        DELETE
    }

    /**
     * The virtual network and subnet the VMs join. The default network is created when it does not exist; a named
     * subnet of an existing network must exist, because Gantry cannot know which address range is free there.
     */
    public record Network(String virtualNetwork, String subnet) {
        public static final String DEFAULT_VNET = "gantry-vnet";
        public static final String DEFAULT_SUBNET = "default";
        public static final String DEFAULT_ADDRESS_SPACE = "10.210.0.0/16";
        public static final String DEFAULT_SUBNET_PREFIX = "10.210.0.0/20";

        public Network {
            Objects.requireNonNull(virtualNetwork, "virtualNetwork");
            Objects.requireNonNull(subnet, "subnet");
        }

        public static Network defaults() {
            return new Network(DEFAULT_VNET, DEFAULT_SUBNET);
        }
    }

    /**
     * A request for regional VMs that share no fabric, as before zones and scale sets.
     *
     * @param subscriptionId see the record
     * @param resourceGroup see the record
     * @param region see the record
     * @param vmSize see the record
     * @param image see the record
     * @param count see the record
     * @param spot see the record
     * @param adminUser see the record
     * @param sshPublicKey see the record
     * @param cloudInit see the record
     * @param publicIp see the record
     * @param sshSource see the record
     * @param namePrefix see the record
     * @param network see the record
     * @param tags see the record
     */
    public ProvisionRequest(String subscriptionId, String resourceGroup, String region, String vmSize, ImageRef image,
            int count, Optional<Spot> spot, String adminUser, String sshPublicKey, String cloudInit, boolean publicIp,
            String sshSource, String namePrefix, Network network, Map<String, String> tags) {
        this(subscriptionId, resourceGroup, region, vmSize, image, count, spot, adminUser, sshPublicKey, cloudInit,
                publicIp, sshSource, namePrefix, network, tags, Optional.empty(), false);
    }

    public ProvisionRequest {
        Objects.requireNonNull(spot, "spot");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(tags, "tags");
        tags = Map.copyOf(tags);
        List<Problem> problems = new ArrayList<>();
        check(problems, "subscriptionId", subscriptionId, SUBSCRIPTION, "a GUID such as 00000000-0000-0000-0000-000000000000");
        check(problems, "resourceGroup", resourceGroup, RESOURCE_GROUP,
                "1 to 90 letters, digits, '-', '_', '.', '(' or ')'");
        if (resourceGroup != null && resourceGroup.endsWith(".")) {
            problems.add(Problem.of("resourceGroup", "'" + resourceGroup + "' ends with '.', which Azure refuses"));
        }
        check(problems, "region", region, REGION, "an Azure region name in lower case, such as eastus");
        check(problems, "vmSize", vmSize, VM_SIZE, "a VM size name such as Standard_ND96isr_H100_v5");
        checkImage(problems, image);
        if (FabricPlacement.fabric(sharedFabric, zone) == FabricPlacement.Fabric.SCALE_SET
                && count > PLACEMENT_GROUP_VMS) {
            problems.add(Problem.of("count", count + " VMs do not fit one InfiniBand fabric in a zone: they are the "
                    + "instances of a scale set limited to a single placement group, which Azure caps at "
                    + PLACEMENT_GROUP_VMS + " VMs; allowed: 1 to " + PLACEMENT_GROUP_VMS + " (or leave the zone out: "
                    + "an availability set holds up to 200)"));
        } else if (count < 1 || count > MAX_COUNT) {
            problems.add(Problem.of("count", count + " is out of range; allowed: 1 to " + MAX_COUNT));
        }
        spot.ifPresent(s -> checkSpot(problems, s));
        check(problems, "adminUser", adminUser, ADMIN_USER,
                "1 to 32 characters: lower-case letters, digits, '_' or '-', starting with a letter or '_'");
        if (adminUser != null && RESERVED_USERS.contains(adminUser)) {
            problems.add(Problem.of("adminUser", "'" + adminUser + "' is reserved by Azure; choose another name, "
                    + "for example 'gantry'"));
        }
        checkSshKey(problems, sshPublicKey);
        if (cloudInit == null) {
            problems.add(Problem.of("cloudInit", "missing; give the boot script (may be empty)"));
        } else if (cloudInit.getBytes(StandardCharsets.UTF_8).length > MAX_CUSTOM_DATA_BYTES) {
            problems.add(Problem.of("cloudInit", cloudInit.getBytes(StandardCharsets.UTF_8).length
                    + " bytes is more than Azure's custom-data limit of " + MAX_CUSTOM_DATA_BYTES + " bytes"));
        }
        if (publicIp) {
            check(problems, "sshSource", sshSource, SSH_SOURCE,
                    "'*', a service tag such as Internet, an IPv4 address or an IPv4 CIDR such as 203.0.113.0/24");
        }
        check(problems, "namePrefix", namePrefix, NAME_PREFIX,
                "lower-case letters, digits and '-', starting with a letter and not ending with '-'");
        if (namePrefix != null && namePrefix.length() > MAX_PREFIX) {
            problems.add(Problem.of("namePrefix", "'" + namePrefix + "' has " + namePrefix.length()
                    + " characters; allowed: at most " + MAX_PREFIX));
        }
        String networkName = "1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit and ending "
                + "with a letter, digit or '_'";
        check(problems, "network.virtualNetwork", network.virtualNetwork(), NETWORK_NAME, networkName);
        check(problems, "network.subnet", network.subnet(), NETWORK_NAME, networkName);
        checkTags(problems, tags);
        zone.filter(z -> !ZONE.matcher(z).matches()).ifPresent(z -> problems.add(Problem.of("zone", "'" + z
                + "' is not an availability zone; allowed: 1, 2 or 3 (Azure's logical zones), or none for regional "
                + "VMs")));
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /**
     * The request that provisions a plan: its size, region, image and node count; spot plans use eviction policy
     * {@code Delete} (an evicted VM leaves nothing billing behind, and running {@code vm up} again recreates it) and
     * pay up to the on-demand price. The VMs are private and join the default network; the workload's name and labels
     * become tags. The VMs of an RDMA size share one fabric ({@link FabricPlacement#needsSharedFabric}), in the zone
     * {@link FabricPlacement#zone} picks (for an RDMA plan, one the workload asks of the region; regional else).
     */
    public static ProvisionRequest forPlan(dev.gantry.api.Plan plan, String subscriptionId, String resourceGroup,
            String adminUser, String sshPublicKey, String cloudInit, String namePrefix) {
        Map<String, String> tags = new LinkedHashMap<>(plan.workload().labels());
        tags.put("gantry:workload", plan.workload().name());
        return new ProvisionRequest(subscriptionId, resourceGroup, plan.region(), plan.vmSize().name(), plan.image(),
                plan.nodes(), plan.spot() ? Optional.of(Spot.upToOnDemand(EvictionPolicy.DELETE)) : Optional.empty(),
                adminUser, sshPublicKey, cloudInit, false, "*", namePrefix, Network.defaults(), tags,
                FabricPlacement.zone(plan, Optional.empty()), FabricPlacement.needsSharedFabric(plan));
    }

    /** The same request for another number of VMs ({@code --count}). */
    public ProvisionRequest withCount(int vms) {
        return new ProvisionRequest(subscriptionId, resourceGroup, region, vmSize, image, vms, spot, adminUser,
                sshPublicKey, cloudInit, publicIp, sshSource, namePrefix, network, tags, zone, sharedFabric);
    }

    /** The same request with a public IP per VM, SSH open to {@code source} (a CIDR, an address or a service tag). */
    public ProvisionRequest withPublicIp(String source) {
        return new ProvisionRequest(subscriptionId, resourceGroup, region, vmSize, image, count, spot, adminUser,
                sshPublicKey, cloudInit, true, source, namePrefix, network, tags, zone, sharedFabric);
    }

    /** The same request with every VM in availability zone {@code vmZone} ({@code 1}, {@code 2} or {@code 3}). */
    public ProvisionRequest withZone(String vmZone) {
        return new ProvisionRequest(subscriptionId, resourceGroup, region, vmSize, image, count, spot, adminUser,
                sshPublicKey, cloudInit, publicIp, sshSource, namePrefix, network, tags, Optional.of(vmZone),
                sharedFabric);
    }

    /** How the VMs share a fabric: not at all, in an availability set, or as the instances of a zonal scale set. */
    public FabricPlacement.Fabric fabric() {
        return FabricPlacement.fabric(sharedFabric, zone);
    }

    /** The same request with its VMs on one InfiniBand fabric, or not. */
    public ProvisionRequest withSharedFabric(boolean shared) {
        return new ProvisionRequest(subscriptionId, resourceGroup, region, vmSize, image, count, spot, adminUser,
                sshPublicKey, cloudInit, publicIp, sshSource, namePrefix, network, tags, zone, shared);
    }

    /** The VM names this request provisions, in order. */
    public List<String> vmNames() {
        List<String> names = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            names.add(namePrefix + "-" + i);
        }
        return names;
    }

    /** The tags put on every resource: the caller's, plus the managed marker (which the caller cannot override). */
    public Map<String, String> resourceTags() {
        Map<String, String> all = new LinkedHashMap<>(tags);
        all.put(MANAGED_TAG, "true");
        return Map.copyOf(all);
    }

    private static void check(List<Problem> problems, String path, String value, Pattern allowed, String what) {
        if (value == null) {
            problems.add(Problem.of(path, "missing; allowed: " + what));
        } else if (!allowed.matcher(value).matches()) {
            problems.add(Problem.of(path, "'" + value + "' is not valid; allowed: " + what));
        }
    }

    private static void checkImage(List<Problem> problems, ImageRef image) {
        switch (image.kind()) {
            case MARKETPLACE -> {
                String[] parts = image.id().split(":", -1);
                boolean ok = parts.length == 4;
                for (String part : parts) {
                    ok &= !part.isBlank();
                }
                if (!ok) {
                    problems.add(Problem.of("image", "'" + image.id() + "' is not a marketplace URN; allowed: "
                            + "publisher:offer:sku:version, e.g. microsoft-dsvm:ubuntu-hpc:2204:latest"));
                }
            }
            case GALLERY -> {
                String id = image.id().toLowerCase(Locale.ROOT);
                if (!id.startsWith("/subscriptions/") || !id.contains("/providers/microsoft.compute/galleries/")) {
                    problems.add(Problem.of("image", "'" + image.id() + "' is not an Azure Compute Gallery image ID; "
                            + "allowed: /subscriptions/<id>/resourceGroups/<rg>/providers/Microsoft.Compute/galleries/"
                            + "<gallery>/images/<image>[/versions/<version>]"));
                }
            }
            case HOST -> problems.add(Problem.of("image", "'" + image.name() + "' describes machines Gantry does not "
                    + "create; give a marketplace URN or a gallery image ID to provision VMs"));
        }
    }

    private static void checkSpot(List<Problem> problems, Spot spot) {
        BigDecimal price = spot.maxPricePerHour();
        boolean upToOnDemand = price.compareTo(Spot.UP_TO_ON_DEMAND) == 0;
        if (!upToOnDemand && price.signum() <= 0) {
            problems.add(Problem.of("spot.maxPricePerHour", price.toPlainString() + " is not allowed; give a price "
                    + "above 0 in US dollars per hour, or -1 to pay up to the on-demand price"));
        } else if (!upToOnDemand && price.stripTrailingZeros().scale() > 5) {
            problems.add(Problem.of("spot.maxPricePerHour", price.toPlainString()
                    + " has more than 5 decimal places, which Azure refuses; round it, e.g. "
                    + price.setScale(5, java.math.RoundingMode.HALF_UP).toPlainString()));
        }
    }

    // The key is public, but a private key pasted by mistake must never be echoed, so no message repeats the value.
    private static void checkSshKey(List<Problem> problems, String key) {
        if (key == null || key.isBlank()) {
            problems.add(Problem.of("sshPublicKey", "missing; give the contents of your public key file, e.g. "
                    + "~/.ssh/id_ed25519.pub"));
        } else if (key.contains("PRIVATE KEY")) {
            problems.add(Problem.of("sshPublicKey", "looks like a private key; give the public key (the .pub file) "
                    + "and keep the private key to yourself"));
        } else if (!SSH_KEY.matcher(key.strip()).matches()) {
            problems.add(Problem.of("sshPublicKey", "is not a single-line OpenSSH public key; allowed types: "
                    + "ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256/384/521 (the contents of a .pub file)"));
        }
    }

    private static void checkTags(List<Problem> problems, Map<String, String> tags) {
        for (Map.Entry<String, String> tag : tags.entrySet()) {
            String key = tag.getKey();
            if (key.isEmpty() || key.length() > 512 || key.chars().anyMatch(c -> "<>%&\\?/".indexOf(c) >= 0)) {
                problems.add(Problem.of("tags." + key, "tag name is not valid; allowed: 1 to 512 characters "
                        + "without < > % & \\ ? /"));
            }
            if (tag.getValue().length() > 256) {
                problems.add(Problem.of("tags." + key, "value has " + tag.getValue().length()
                        + " characters; allowed: at most 256"));
            }
            if (key.equalsIgnoreCase(MANAGED_TAG)) {
                problems.add(Problem.of("tags." + key, "is set by Gantry itself; remove it"));
            }
        }
    }
}

package dev.gantry.core.catalog;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of an Azure VM size name, following Azure's naming convention
 * ({@code [Tier]_[Family][Sub-family]#[-constrained vCPUs][Additive features]_[Accelerator]_[Version]}).
 *
 * <p>How the name is split:
 * <ul>
 *   <li>{@link #family()} is every upper-case letter before the first digit: {@code NC}, {@code NCC}, {@code ND},
 *       {@code NV}, {@code NG}, {@code E}, {@code EC}, {@code DC}, {@code DS}, {@code FX}, {@code HB}, ... The first
 *       letter is the {@link #seriesLetter()} ({@code N} for GPU sizes) and the rest the {@link #subFamily()}
 *       ({@code C}, {@code CC}, {@code D}, ...). Keeping the full run as the family matches how Azure names series
 *       ("NC", "NCC", "EC") and how the catalog is filtered.</li>
 *   <li>{@link #number()} is the number in the name. For current series it is the vCPU count; for some older series
 *       it is a size index ({@code D11}, {@code A0}), so the catalog takes the vCPU count from the data, not from
 *       here.</li>
 *   <li>{@link #constrainedVcpus()} is the number after the dash: {@code E32-16as_v5} is a 32-vCPU size with 16
 *       active vCPUs, so it offers 16.</li>
 *   <li>{@link #features()} are the lower-case additive letters ({@code a} AMD, {@code d} local disk, {@code i}
 *       isolated, {@code m} memory intensive, {@code p} Arm64, {@code r} RDMA, {@code s} premium storage, ...).</li>
 *   <li>{@link #accelerator()} is an underscore part that starts with an upper-case letter ({@code A100},
 *       {@code H100}, {@code T4}, {@code MI300X}, {@code V620}); {@link #version()} is {@code v5} as 5;
 *       {@link #promo()} marks old {@code _Promo} sizes; any other part ({@code cc} confidential, the
 *       memory variant {@code 3} in {@code M176s_3_v3}) is kept in {@link #otherParts()}.</li>
 * </ul>
 */
public record SizeName(
        String name,
        String tier,
        String family,
        int number,
        OptionalInt constrainedVcpus,
        Set<Character> features,
        Optional<String> accelerator,
        OptionalInt version,
        boolean promo,
        List<String> otherParts) {

    private static final Pattern HEAD = Pattern.compile("([A-Z]+)(\\d+)(?:-(\\d+))?([a-z]*)");
    private static final Pattern VERSION = Pattern.compile("v(\\d+)");

    public SizeName {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(constrainedVcpus, "constrainedVcpus");
        features = Collections.unmodifiableSet(new TreeSet<>(features));
        Objects.requireNonNull(accelerator, "accelerator");
        Objects.requireNonNull(version, "version");
        otherParts = List.copyOf(otherParts);
    }

    /** Parses an Azure size name; empty when it does not follow the convention. */
    public static Optional<SizeName> parse(String azureName) {
        if (azureName == null) {
            return Optional.empty();
        }
        String[] parts = azureName.split("_", -1);
        if (parts.length < 2 || !(parts[0].equals("Standard") || parts[0].equals("Basic"))) {
            return Optional.empty();
        }
        Matcher head = HEAD.matcher(parts[1]);
        if (!head.matches()) {
            return Optional.empty();
        }
        OptionalInt constrained = head.group(3) == null
                ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(head.group(3)));
        TreeSet<Character> features = new TreeSet<>();
        for (char letter : head.group(4).toCharArray()) {
            features.add(letter);
        }
        String accelerator = null;
        OptionalInt version = OptionalInt.empty();
        boolean promo = false;
        List<String> others = new ArrayList<>();
        for (int i = 2; i < parts.length; i++) {
            String part = parts[i];
            Matcher v = VERSION.matcher(part);
            if (part.isEmpty()) {
                return Optional.empty();
            } else if (v.matches() && version.isEmpty()) {
                version = OptionalInt.of(Integer.parseInt(v.group(1)));
            } else if (part.equals("Promo")) {
                promo = true;
            } else if (Character.isUpperCase(part.charAt(0)) && accelerator == null && version.isEmpty()) {
                accelerator = part;
            } else {
                others.add(part);
            }
        }
        return Optional.of(new SizeName(azureName, parts[0], head.group(1), Integer.parseInt(head.group(2)),
                constrained, features, Optional.ofNullable(accelerator), version, promo, others));
    }

    /** Parses an Azure size name or fails with {@link ErrorCode#CATALOG_INVALID} naming the value. */
    public static SizeName parseOrThrow(String azureName) {
        return parse(azureName).orElseThrow(() -> new GantryException(ErrorCode.CATALOG_INVALID,
                "VM size name '" + azureName + "' does not follow Azure's naming convention"
                        + " (Standard_<Family><vCPUs>[-<constrained>][features][_<accelerator>][_v<version>],"
                        + " e.g. Standard_NC24ads_A100_v4)"));
    }

    /** The first letter of the family: {@code N} for GPU sizes, {@code E} memory optimized, ... */
    public char seriesLetter() {
        return family.charAt(0);
    }

    /** The family's letters after the first: {@code C} in {@code NC}, {@code CC} in {@code NCC}, empty for E. */
    public String subFamily() {
        return family.substring(1);
    }

    /** The vCPUs a VM of this size can use when the name says so: the constrained count, else the number. */
    public int usableVcpus() {
        return constrainedVcpus.orElse(number);
    }

    public boolean hasFeature(char letter) {
        return features.contains(letter);
    }

    /** {@code r}: RDMA (InfiniBand) capable. */
    public boolean rdma() {
        return hasFeature('r');
    }

    /** {@code p}: Arm64 processor. */
    public boolean arm64() {
        return hasFeature('p');
    }

    /** {@code a}: AMD CPU. */
    public boolean amdCpu() {
        return hasFeature('a');
    }

    /** {@code d}: local temporary disk. */
    public boolean localDisk() {
        return hasFeature('d');
    }

    /** {@code s}: premium storage capable. */
    public boolean premiumStorage() {
        return hasFeature('s');
    }

    /** {@code i}: isolated (the size takes a whole host). */
    public boolean isolated() {
        return hasFeature('i');
    }

    /** {@code m}: memory intensive. */
    public boolean memoryIntensive() {
        return hasFeature('m');
    }

    /** GPU sizes are the N family (NC, ND, NV, NG, NCC). */
    public boolean gpuFamily() {
        return seriesLetter() == 'N' && !family.equals("NP");
    }
}

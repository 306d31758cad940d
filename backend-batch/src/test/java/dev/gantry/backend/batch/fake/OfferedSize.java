package dev.gantry.backend.batch.fake;

import dev.gantry.azure.fakes.ArmFake;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A VM size Resource Manager's fake offers to Batch in a region, Spot (low-priority) capable, with room for it in every
 * quota Gantry's validate reads for a user-subscription account: the regional, the Spot and its family's vCPUs.
 *
 * @param name the size, e.g. {@code Standard_D2s_v5}
 * @param family its VM family, as Compute usages name its quota, e.g. {@code standardDSv5Family}
 * @param vcpus its vCPUs
 */
public record OfferedSize(String name, String family, int vcpus) {
    /** What each quota allows: room for any test's plans. */
    static final int QUOTA_VCPUS = 1000;
    static final String FORMAT = "NAME=FAMILY:VCPUS, e.g. Standard_D2s_v5=standardDSv5Family:2";

    /**
     * {@code NAME=FAMILY:VCPUS}, as {@code BatchFakeMain --vm-size} takes it.
     *
     * @throws IllegalArgumentException naming the text and the format
     */
    static OfferedSize parse(String text) {
        String[] nameAndRest = text.split("=", 2);
        String[] familyAndCpus = nameAndRest.length == 2 ? nameAndRest[1].split(":", 2) : new String[0];
        if (familyAndCpus.length != 2 || nameAndRest[0].isBlank() || familyAndCpus[0].isBlank()
                || !familyAndCpus[1].matches("[1-9][0-9]{0,3}")) {
            throw new IllegalArgumentException("--vm-size '" + text + "' is not " + FORMAT
                    + " (VCPUS a whole number from 1)");
        }
        return new OfferedSize(nameAndRest[0], familyAndCpus[0], Integer.parseInt(familyAndCpus[1]));
    }

    /** Offers the sizes to Batch in the region and sets the region's usages: every quota with room for them. */
    public static void offer(ArmFake arm, String region, List<OfferedSize> sizes) {
        List<String> skus = new ArrayList<>();
        Set<String> families = new LinkedHashSet<>();
        for (OfferedSize size : sizes) {
            skus.add(ArmFake.batchVmSku(size.name(), size.family(), size.vcpus(), true));
            families.add(size.family());
        }
        arm.batchVmSkus(region, skus.toArray(String[]::new));
        List<String> usages = new ArrayList<>(List.of(
                ArmFake.usage("lowPriorityCores", "Total Spot vCPUs", 0, QUOTA_VCPUS),
                ArmFake.usage("cores", "Total Regional vCPUs", 0, QUOTA_VCPUS)));
        families.forEach(family -> usages.add(ArmFake.usage(family, family + " vCPUs", 0, QUOTA_VCPUS)));
        arm.usages(region, "[" + String.join(",", usages) + "]");
    }
}

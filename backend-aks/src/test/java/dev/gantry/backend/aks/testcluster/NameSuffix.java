package dev.gantry.backend.aks.testcluster;

import java.util.concurrent.ThreadLocalRandom;

/** The five characters Kubernetes appends to a generateName (k8s.io/apimachinery's rand.String alphabet). */
final class NameSuffix {
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private NameSuffix() {
    }

    static String random() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(ALPHABET.charAt(ThreadLocalRandom.current().nextInt(ALPHABET.length())));
        }
        return suffix.toString();
    }
}

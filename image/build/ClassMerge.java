import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Merges the classes of many jars into one plain (non-modular, multi-release) jar, for one jdeps run over the whole
 * runtime closure: jdeps analyses a modular jar given as input as a module and then fails on its missing module
 * dependencies, and one jdeps run per jar costs minutes. Used by bin/build-image and bin/build-cli to find the JDK
 * modules to jlink. Usage: java ClassMerge.java OUT.jar IN.jar...
 */
public final class ClassMerge {
    public static void main(String[] args) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
        Set<String> seen = new HashSet<>();
        try (var out = new JarOutputStream(Files.newOutputStream(Path.of(args[0])), mf)) {
            for (int i = 1; i < args.length; i++) {
                try (ZipFile zip = new ZipFile(args[i])) {
                    for (var en = zip.entries(); en.hasMoreElements(); ) {
                        ZipEntry e = en.nextElement();
                        String n = e.getName();
                        if (!n.endsWith(".class") || n.endsWith("module-info.class") || !seen.add(n)) {
                            continue;
                        }
                        out.putNextEntry(new ZipEntry(n));
                        try (var is = zip.getInputStream(e)) {
                            is.transferTo(out);
                        }
                        out.closeEntry();
                    }
                }
            }
        }
    }
}

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Copies the jars of a directory without the native libraries of other platforms, and without the jars an image
 * must not hold (run by bin/build-image and bin/build-cli with the JDK's source launcher, so the build needs no zip
 * tool). Kept in each jar: every class and resource, and native files (.so, .dll, .dylib, .jnilib, .pdb, .dSYM)
 * only under a directory that names the platform the image runs on. A jar with nothing to drop is copied as is.
 * Usage: java JarTrim.java KEEP_PLATFORM_REGEX EXCLUDED_JAR_REGEX IN_DIR OUT_DIR
 * Prints one line per trimmed or excluded jar and the total of bytes dropped.
 */
public final class JarTrim {
    private static final Pattern NATIVE =
            Pattern.compile(".*(\\.(so(\\.[0-9.]+)?|dll|dylib|jnilib|pdb)$|\\.dSYM/.*)");

    public static void main(String[] args) throws IOException {
        Pattern keep = Pattern.compile(args[0]);
        Pattern excluded = Pattern.compile(args[1]);
        Path in = Path.of(args[2]);
        Path out = Files.createDirectories(Path.of(args[3]));
        long total = 0;
        List<Path> jars;
        try (Stream<Path> s = Files.list(in)) {
            jars = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        for (Path jar : jars) {
            String file = jar.getFileName().toString();
            if (excluded.matcher(file).matches()) {
                System.out.println("excluded " + file + " (" + Files.size(jar) / 1024 + " KiB)");
                total += Files.size(jar);
                continue;
            }
            List<String> drop = new ArrayList<>();
            long dropped = 0;
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (var en = zip.entries(); en.hasMoreElements(); ) {
                    ZipEntry e = en.nextElement();
                    if (NATIVE.matcher(e.getName()).matches() && !keep.matcher(e.getName()).find()) {
                        drop.add(e.getName());
                        dropped += e.getCompressedSize();
                    }
                }
                if (drop.isEmpty()) {
                    Files.copy(jar, out.resolve(file), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.COPY_ATTRIBUTES);
                    continue;
                }
                try (var zos = new ZipOutputStream(Files.newOutputStream(out.resolve(file)))) {
                    for (var en = zip.entries(); en.hasMoreElements(); ) {
                        ZipEntry e = en.nextElement();
                        if (drop.contains(e.getName())) {
                            continue;
                        }
                        ZipEntry copy = new ZipEntry(e.getName());
                        copy.setTime(e.getTime());
                        zos.putNextEntry(copy);
                        try (var is = zip.getInputStream(e)) {
                            is.transferTo(zos);
                        }
                        zos.closeEntry();
                    }
                }
            }
            System.out.println("trimmed " + file + ": " + drop.size() + " native files of other platforms ("
                    + dropped / 1024 + " KiB)");
            total += dropped;
        }
        System.out.println("dropped " + total / (1024 * 1024) + " MiB");
    }
}

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Writes THIRD-PARTY.txt and NOTICE of the release archive (lakeops-dist/pom.xml, package phase),
 * run as a single-file Java program: {@code java ThirdPartyNotices.java <dependency list> <local
 * repository> <lib dir> <NOTICE header> <output dir>}.
 *
 * <p>THIRD-PARTY.txt: for every jar of the dependency list (maven-dependency-plugin's {@code list}
 * goal) its coordinates, project name and URL, and the licenses its POM declares, or the nearest
 * parent POM's (all read from the local repository the build resolved them into: no download).
 * NOTICE: the header, then each distinct META-INF/NOTICE text the jars in lib/ carry, once, with
 * the jars that carry it.
 */
public final class ThirdPartyNotices {
  private static final Pattern COORDINATES =
      Pattern.compile("^\\s*([^:\\s]+):([^:\\s]+):([^:\\s]+):(?:([^:\\s]+):)?([^:\\s]+):([a-z]+)\\b.*$");

  private record Artifact(String groupId, String artifactId, String classifier, String version) {
    String fileName() {
      return artifactId + "-" + version + (classifier == null ? "" : "-" + classifier) + ".jar";
    }

    String coordinates() {
      return groupId + ":" + artifactId + ":" + version + (classifier == null ? "" : ":" + classifier);
    }
  }

  private record License(String name, String url) {}

  private record Project(String name, String url, List<License> licenses) {}

  public static void main(String[] args) throws Exception {
    Path dependencyList = Path.of(args[0]);
    Path repository = Path.of(args[1]);
    Path lib = Path.of(args[2]);
    Path noticeHeader = Path.of(args[3]);
    Path output = Path.of(args[4]);
    List<Artifact> artifacts = artifacts(dependencyList);
    if (artifacts.isEmpty()) {
      throw new IllegalStateException("no dependencies in " + dependencyList);
    }
    Files.createDirectories(output);
    StringBuilder thirdParty = new StringBuilder();
    thirdParty.append("Third-party software bundled in lib/ (").append(artifacts.size())
        .append(" jars), with the licenses their Maven POMs declare\n")
        .append("(groupId:artifactId:version[:classifier]  project  [license, url]).\n\n");
    Map<String, List<String>> notices = new LinkedHashMap<>();
    for (Artifact artifact : artifacts) {
      Path jar = lib.resolve(artifact.fileName());
      if (!Files.isRegularFile(jar)) {
        throw new IllegalStateException(artifact.coordinates() + ": no " + jar);
      }
      if (artifact.groupId().equals("dev.lakeops")) {
        continue;
      }
      Project project = project(repository, artifact.groupId(), artifact.artifactId(), artifact.version());
      thirdParty.append(artifact.coordinates()).append('\n');
      thirdParty.append("    ").append(project.name());
      if (!project.url().isEmpty()) {
        thirdParty.append("  <").append(project.url()).append('>');
      }
      thirdParty.append('\n');
      if (project.licenses().isEmpty()) {
        thirdParty.append("    license: not declared in its POM; see the jar's META-INF\n");
      }
      for (License license : project.licenses()) {
        thirdParty.append("    license: ").append(license.name());
        if (!license.url().isEmpty()) {
          thirdParty.append("  <").append(license.url()).append('>');
        }
        thirdParty.append('\n');
      }
      for (String notice : notices(jar)) {
        notices.computeIfAbsent(notice, text -> new ArrayList<>()).add(artifact.fileName());
      }
    }
    Files.writeString(output.resolve("THIRD-PARTY.txt"), thirdParty);
    StringBuilder notice = new StringBuilder(Files.readString(noticeHeader));
    for (Map.Entry<String, List<String>> entry : notices.entrySet()) {
      notice.append("\n").append("=".repeat(100)).append("\n")
          .append(String.join(", ", entry.getValue())).append(":\n\n")
          .append(entry.getKey().strip()).append('\n');
    }
    Files.writeString(output.resolve("NOTICE"), notice);
  }

  private static List<Artifact> artifacts(Path dependencyList) throws IOException {
    List<Artifact> artifacts = new ArrayList<>();
    for (String line : Files.readAllLines(dependencyList)) {
      Matcher matcher = COORDINATES.matcher(line);
      if (matcher.matches() && matcher.group(3).equals("jar")) {
        artifacts.add(
            new Artifact(matcher.group(1), matcher.group(2), matcher.group(4), matcher.group(5)));
      }
    }
    return artifacts;
  }

  /** Name, URL and licenses from the POM, the licenses (and URL) of the nearest parent that has them. */
  private static Project project(Path repository, String groupId, String artifactId, String version)
      throws Exception {
    Element pom = pom(repository, groupId, artifactId, version)
        .orElseThrow(() -> new IllegalStateException(
            "no POM of " + groupId + ":" + artifactId + ":" + version + " in " + repository));
    String name = child(pom, "name").orElse(artifactId);
    String url = child(pom, "url").orElse("");
    List<License> licenses = licenses(pom);
    Element current = pom;
    for (int depth = 0; licenses.isEmpty() && depth < 10; depth++) {
      Optional<Element> parent = childElement(current, "parent");
      if (parent.isEmpty()) {
        break;
      }
      Optional<Element> parentPom = pom(repository, child(parent.get(), "groupId").orElseThrow(),
          child(parent.get(), "artifactId").orElseThrow(), child(parent.get(), "version").orElseThrow());
      if (parentPom.isEmpty()) {
        break;
      }
      current = parentPom.get();
      licenses = licenses(current);
      if (url.isEmpty()) {
        url = child(current, "url").orElse("");
      }
    }
    return new Project(name.replaceAll("\\s+", " "), url.contains("${") ? "" : url, licenses);
  }

  private static List<License> licenses(Element pom) {
    List<License> licenses = new ArrayList<>();
    childElement(pom, "licenses").ifPresent(list -> {
      NodeList children = list.getChildNodes();
      for (int i = 0; i < children.getLength(); i++) {
        if (children.item(i) instanceof Element license && license.getTagName().equals("license")) {
          licenses.add(new License(child(license, "name").orElse("(unnamed)").replaceAll("\\s+", " "),
              child(license, "url").orElse("")));
        }
      }
    });
    return licenses;
  }

  private static Optional<Element> pom(Path repository, String groupId, String artifactId, String version)
      throws Exception {
    Path file = repository.resolve(groupId.replace('.', '/')).resolve(artifactId).resolve(version)
        .resolve(artifactId + "-" + version + ".pom");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    Document document = factory.newDocumentBuilder().parse(file.toFile());
    return Optional.of(document.getDocumentElement());
  }

  private static Optional<Element> childElement(Element parent, String tag) {
    NodeList children = parent.getChildNodes();
    for (int i = 0; i < children.getLength(); i++) {
      Node node = children.item(i);
      if (node instanceof Element element && element.getTagName().equals(tag)) {
        return Optional.of(element);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> child(Element parent, String tag) {
    return childElement(parent, tag).map(element -> element.getTextContent().strip())
        .filter(text -> !text.isEmpty());
  }

  /** The texts of the jar's NOTICE files (META-INF/NOTICE*, or NOTICE at its root as in Iceberg's). */
  private static List<String> notices(Path jar) throws IOException {
    List<String> notices = new ArrayList<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry entry : file.stream().toList()) {
        String name = entry.getName();
        if (!entry.isDirectory() && name.matches("(?i)(META-INF/)?NOTICE(\\.txt|\\.md)?")) {
          try (InputStream in = file.getInputStream(entry)) {
            notices.add(new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n"));
          }
        }
      }
    }
    return notices;
  }
}

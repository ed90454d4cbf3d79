/** Runs epubcheck on every file given, in one JVM: its start-up costs more than a check. */
public class CheckAll {
  public static void main(String[] args) {
    for (String file : args) {
      System.out.println("=== " + file);
      int code = new com.adobe.epubcheck.tool.EpubChecker().run(new String[] { file });
      System.out.println("=== exit " + code);
    }
  }
}

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public final class Verify {
  /**
   * True when a webhook is authentic, unmodified and fresh.
   * body: the raw request body (before any JSON parsing); headers: lower-case names;
   * secretBase64: the endpoint's signing secret; host: your endpoint's host (with its port when
   * not 443); tolerance: how far x-fc-date may be from now (Duration.ZERO disables).
   */
  public static boolean verifyWebhook(byte[] body, Map<String, String> headers, String secretBase64, String host,
      Duration tolerance, Instant now) throws GeneralSecurityException {
    String nonce = headers.getOrDefault("x-fc-nonce", "");
    String date = headers.getOrDefault("x-fc-date", "");
    String authorization = headers.getOrDefault("x-fc-authorization", "");
    int at = authorization.indexOf("&Signature=");
    if (nonce.isEmpty() || date.isEmpty() || at < 0) return false;
    if (!tolerance.isZero()) {
      try {
        Instant sent = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        if (Duration.between(sent, now).abs().compareTo(tolerance) > 0) return false;
      } catch (DateTimeParseException e) {
        return false;
      }
    }

    byte[] key = Base64.getDecoder().decode(secretBase64);
    Base64.Encoder base64 = Base64.getEncoder();
    String contentHash = base64.encodeToString(MessageDigest.getInstance("SHA-512").digest(body));
    String toSign = "POST\n" + nonce + ";" + date + ";" + host + ";" + contentHash;
    String signature = base64.encodeToString(hmacSha512(key, toSign.getBytes(StandardCharsets.UTF_8)));
    String bodySignature = base64.encodeToString(hmacSha512(key, body));
    return equal(contentHash, headers.get("x-fc-content-sha512"))
        && equal(signature, authorization.substring(at + "&Signature=".length()))
        && equal(bodySignature, headers.get("x-fc-signature"));
  }

  private static byte[] hmacSha512(byte[] key, byte[] message) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA512");
    mac.init(new SecretKeySpec(key, "HmacSHA512"));
    return mac.doFinal(message);
  }

  /** Constant-time comparison of two strings (MessageDigest.isEqual). */
  private static boolean equal(String expected, String given) {
    return given != null
        && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
  }

  // Test harness: java Verify.java secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
  public static void main(String[] argv) throws IOException, GeneralSecurityException {
    Map<String, String> args = new HashMap<>();
    for (String arg : argv) {
      int eq = arg.indexOf('=');
      args.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    byte[] body = System.in.readAllBytes();
    Duration tolerance = Duration.ofSeconds(Long.parseLong(args.getOrDefault("tolerance", "300")));
    Instant now = args.containsKey("now") ? Instant.ofEpochSecond(Long.parseLong(args.get("now"))) : Instant.now();
    boolean ok = verifyWebhook(body, args, args.get("secret"), args.get("host"), tolerance, now);
    System.out.println(ok ? "ok" : "fail");
  }
}

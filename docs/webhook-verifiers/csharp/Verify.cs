using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Security.Cryptography;
using System.Text;

public static class WebhookVerifier
{
    /// <summary>
    /// True when a webhook is authentic, unmodified and fresh.
    /// body: the raw request body (before any JSON parsing); headers: lower-case names;
    /// secretBase64: the endpoint's signing secret; host: your endpoint's host (with its port when
    /// not 443); tolerance: how far x-fc-date may be from now (TimeSpan.Zero disables).
    /// </summary>
    public static bool Verify(byte[] body, IDictionary<string, string> headers, string secretBase64, string host,
        TimeSpan tolerance, DateTimeOffset now)
    {
        string nonce = Header(headers, "x-fc-nonce");
        string date = Header(headers, "x-fc-date");
        string authorization = Header(headers, "x-fc-authorization");
        int at = authorization.IndexOf("&Signature=", StringComparison.Ordinal);
        if (nonce.Length == 0 || date.Length == 0 || at < 0) return false;
        if (tolerance > TimeSpan.Zero)
        {
            DateTimeOffset sent;
            if (!DateTimeOffset.TryParseExact(date, "r", CultureInfo.InvariantCulture, DateTimeStyles.None, out sent)
                || (now - sent).Duration() > tolerance) return false;
        }

        byte[] key = Convert.FromBase64String(secretBase64);
        string contentHash, signature, bodySignature;
        using (var sha512 = SHA512.Create()) contentHash = Convert.ToBase64String(sha512.ComputeHash(body));
        using (var hmac = new HMACSHA512(key))
        {
            string toSign = "POST\n" + nonce + ";" + date + ";" + host + ";" + contentHash;
            signature = Convert.ToBase64String(hmac.ComputeHash(Encoding.UTF8.GetBytes(toSign)));
            bodySignature = Convert.ToBase64String(hmac.ComputeHash(body));
        }
        return Equal(contentHash, Header(headers, "x-fc-content-sha512"))
            && Equal(signature, authorization.Substring(at + "&Signature=".Length))
            && Equal(bodySignature, Header(headers, "x-fc-signature"));
    }

    static string Header(IDictionary<string, string> headers, string name)
    {
        string value;
        return headers.TryGetValue(name, out value) && value != null ? value : "";
    }

    /// <summary>Constant-time comparison of two strings.</summary>
    static bool Equal(string expected, string given)
    {
        return CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(expected), Encoding.UTF8.GetBytes(given));
    }
}

// Test harness: Verify.exe secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
public static class Program
{
    public static void Main(string[] argv)
    {
        var args = new Dictionary<string, string> { { "tolerance", "300" } };
        foreach (string arg in argv)
        {
            int eq = arg.IndexOf('=');
            args[arg.Substring(0, eq)] = arg.Substring(eq + 1);
        }
        var body = new MemoryStream();
        Console.OpenStandardInput().CopyTo(body);
        var tolerance = TimeSpan.FromSeconds(int.Parse(args["tolerance"], CultureInfo.InvariantCulture));
        var now = args.ContainsKey("now")
            ? DateTimeOffset.FromUnixTimeSeconds(long.Parse(args["now"], CultureInfo.InvariantCulture))
            : DateTimeOffset.UtcNow;
        bool ok = WebhookVerifier.Verify(body.ToArray(), args, args["secret"], args["host"], tolerance, now);
        Console.WriteLine(ok ? "ok" : "fail");
    }
}

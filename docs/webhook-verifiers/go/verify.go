package main

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// VerifyWebhook reports whether a webhook is authentic, unmodified and fresh.
// body: the raw request body (io.ReadAll(r.Body), before any JSON decoding); header: r.Header;
// secretBase64: the endpoint's signing secret; host: your endpoint's host (with its port when not
// 443); tolerance: how far x-fc-date may be from now (0 disables).
func VerifyWebhook(body []byte, header http.Header, secretBase64, host string, tolerance time.Duration, now time.Time) bool {
	nonce, date := header.Get("X-Fc-Nonce"), header.Get("X-Fc-Date")
	_, claimed, found := strings.Cut(header.Get("X-Fc-Authorization"), "&Signature=")
	if nonce == "" || date == "" || !found {
		return false
	}
	if tolerance > 0 {
		sent, err := http.ParseTime(date)
		if err != nil || now.Sub(sent).Abs() > tolerance {
			return false
		}
	}

	key, err := base64.StdEncoding.DecodeString(secretBase64)
	if err != nil {
		return false
	}
	sum := sha512.Sum512(body)
	contentHash := base64.StdEncoding.EncodeToString(sum[:])
	signature := hmacBase64(key, []byte("POST\n"+nonce+";"+date+";"+host+";"+contentHash))
	bodySignature := hmacBase64(key, body)
	// hmac.Equal: constant-time comparison.
	return hmac.Equal([]byte(contentHash), []byte(header.Get("X-Fc-Content-Sha512"))) &&
		hmac.Equal([]byte(signature), []byte(claimed)) &&
		hmac.Equal([]byte(bodySignature), []byte(header.Get("X-Fc-Signature")))
}

func hmacBase64(key, message []byte) string {
	mac := hmac.New(sha512.New, key)
	mac.Write(message)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Test harness: go run verify.go secret=… host=… [tolerance=300] [now=<Unix seconds>] x-fc-…=… < body
func main() {
	header, args := http.Header{}, map[string]string{"tolerance": "300"}
	for _, arg := range os.Args[1:] {
		name, value, _ := strings.Cut(arg, "=")
		args[name] = value
		header.Set(name, value)
	}
	body, _ := io.ReadAll(os.Stdin)
	tolerance, _ := strconv.Atoi(args["tolerance"])
	now := time.Now()
	if s, ok := args["now"]; ok {
		seconds, _ := strconv.ParseInt(s, 10, 64)
		now = time.Unix(seconds, 0)
	}
	if VerifyWebhook(body, header, args["secret"], args["host"], time.Duration(tolerance)*time.Second, now) {
		fmt.Println("ok")
	} else {
		fmt.Println("fail")
	}
}

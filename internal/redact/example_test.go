package redact_test

import (
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

func Example() {
	r := redact.New(redact.Options{})
	fmt.Println(r.String("DB_PASSWORD=hunter2"))
	fmt.Println(r.String("postgres://app:s3cret@db:5432/app"))
	fmt.Println(r.String("call me at <private>555-0100</private> later"))
	fmt.Println(r.String("commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 stays"))
	// Output:
	// DB_PASSWORD=[REDACTED:password]
	// postgres://app:[REDACTED:url-password]@db:5432/app
	// call me at [REDACTED:private] later
	// commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 stays
}

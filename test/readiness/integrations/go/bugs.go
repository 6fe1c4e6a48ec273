package shop

import "os"

// Bug reports whether the one-bug variant named by PIX_BUG is switched on. Each name is one
// mistake a merchant could make (README.md lists them with the finding each must raise); unset,
// the shop is the correct integration.
func Bug(name string) bool { return os.Getenv("PIX_BUG") == name }

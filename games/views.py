from django.shortcuts import render


def home(request):
    return render(request, "games/home.html")


def rules(request):
    return render(request, "games/rules.html")
